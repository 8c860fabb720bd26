import type {} from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError, sendValidationError } from '../http/replies.js';

/** What a bulk upload carried: the file and the optional `batch_id` text field. */
interface BulkUpload {
  readonly file: { readonly bytes: Buffer; readonly fileName?: string };
  readonly batchId?: string;
}

/**
 * Reads `file` (at most `maxFileBytes`, else 413) and `batch_id`; bad multipart is a 400.
 * An upload that cannot be read is answered here, with a message that says what to do.
 */
export async function readBulkUpload(
  request: FastifyRequest,
  maxFileBytes: number,
  reply: FastifyReply,
): Promise<BulkUpload | undefined> {
  const invalid = (field: string, message: string): undefined => {
    sendValidationError(reply, { [field]: [message] });
    return undefined;
  };
  let file: BulkUpload['file'] | undefined;
  let batchId: string | undefined;
  let otherFile: string | undefined;
  // A part without `filename=` is a text field to multipart readers, whatever its name.
  let fileWithoutName = false;
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
      } else if (part.fieldname === 'file') {
        fileWithoutName = true;
      }
    }
  } catch (error) {
    return answerUnreadable(reply, error, maxFileBytes);
  }
  if (file === undefined) {
    return invalid(
      'file',
      fileWithoutName
        ? 'The file part has no file name, so it reads as a text field: send it as a file ' +
            '(Content-Disposition: form-data; name="file"; filename="rows.csv").'
        : otherFile === undefined
          ? 'The file field is required: upload the .xlsx or .csv in a multipart field named "file".'
          : `The file field is required: the file was sent in field "${otherFile}"; name the field "file".`,
    );
  }
  return { file, ...(batchId === undefined ? {} : { batchId }) };
}

/** @fastify/multipart's and busboy's errors, reworded and answered; every one is the client's doing. */
function answerUnreadable(reply: FastifyReply, error: unknown, maxFileBytes: number): undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT') {
    sendValidationError(reply, {
      file: ['Send exactly one file per upload, in the field named "file".'],
    });
  } else if (code === 'FST_REQ_FILE_TOO_LARGE') {
    const limit = `the ${maxFileBytes}-byte limit of a bulk upload`;
    sendError(reply, 413, `The file is larger than ${limit}; split it into smaller files.`);
  } else if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    sendError(reply, 413, 'The upload has too many form fields; send only "file" and "batch_id".');
  } else if (code === 'FST_PROTO_VIOLATION') {
    sendError(reply, 400, 'A form field is named "__proto__" or like it; rename it.');
  } else {
    const reason = error instanceof Error ? error.message : String(error);
    sendError(
      reply,
      400,
      `The multipart/form-data body could not be read (${reason}); send the file as a multipart upload in the field "file".`,
    );
  }
  return undefined;
}
