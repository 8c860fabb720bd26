import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../schemas/error-body.js';

/** What a bulk upload carried: the file (if any) and the optional `batch_id` text field. */
export interface BulkUpload {
  readonly file?: { readonly bytes: Buffer; readonly fileName?: string };
  readonly batchId?: string;
}

/** Why an upload could not be read: the status to answer and a message that says what to do. */
export type UploadProblem =
  | { readonly status: 400 | 413; readonly message: string }
  | { readonly status: 422; readonly errors: FieldErrors };

/** Reads `file` (at most `maxFileBytes`, else 413) and `batch_id`; bad multipart is a 400. */
export async function readBulkUpload(
  request: FastifyRequest,
  maxFileBytes: number,
): Promise<{ ok: true; upload: BulkUpload } | { ok: false; problem: UploadProblem }> {
  let file: BulkUpload['file'];
  let batchId: string | undefined;
  let otherFile: string | undefined;
  try {
    for await (const part of request.parts({
      // A text field may be 1 KiB: `batch_id` is at most 64 characters.
      limits: { fileSize: maxFileBytes, files: 1, fields: 20, parts: 21, fieldSize: 1024 },
    })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        // The name only improves messages; a long one is cut, an empty one dropped.
        const fileName = part.filename.slice(0, 100);
        if (part.fieldname === 'file') file = { bytes, ...(fileName ? { fileName } : {}) };
        else otherFile = part.fieldname;
      } else if (part.fieldname === 'batch_id') {
        if (part.valueTruncated) {
          return invalid('batch_id', 'The batch_id may not be longer than 64 characters.');
        }
        // Two values are ambiguous (which one names the rows?): refused, as a second file is.
        if (batchId !== undefined) {
          return invalid('batch_id', 'Send the batch_id field once; it was sent more than once.');
        }
        batchId = String(part.value);
      }
    }
  } catch (error) {
    return { ok: false, problem: problemOf(error, maxFileBytes) };
  }
  if (file === undefined) {
    return invalid(
      'file',
      otherFile === undefined
        ? 'The file field is required: upload the .xlsx or .csv in a multipart field named "file".'
        : `The file field is required: the file was sent in field "${otherFile}"; name the field "file".`,
    );
  }
  return { ok: true, upload: { file, ...(batchId === undefined ? {} : { batchId }) } };
}

function invalid(field: string, message: string): { ok: false; problem: UploadProblem } {
  return { ok: false, problem: { status: 422, errors: { [field]: [message] } } };
}

/** @fastify/multipart's and busboy's errors, reworded; every one is the client's doing. */
function problemOf(error: unknown, maxFileBytes: number): UploadProblem {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return {
        status: 413,
        message: `The file is larger than the ${maxFileBytes}-byte limit of a bulk upload; split it into smaller files.`,
      };
    case 'FST_FILES_LIMIT':
      return {
        status: 422,
        errors: { file: ['Send exactly one file per upload, in the field named "file".'] },
      };
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return {
        status: 413,
        message: 'The upload has too many form fields; send only "file" and "batch_id".',
      };
    case 'FST_PROTO_VIOLATION':
      return { status: 400, message: 'A form field is named "__proto__" or like it; rename it.' };
    default: {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        status: 400,
        message: `The multipart/form-data body could not be read (${reason}); send the file as a multipart upload in the field "file".`,
      };
    }
  }
}
