import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ulid } from 'ulid';
import { sandboxPrefixes } from '../../core/endpoints.js';
import { airtimeBulkBatchIdSchema } from '../../schemas/airtime-bulk.js';
import {
  type BulkRowProblem,
  bulkRowFieldErrors,
  isSpreadsheetError,
  readAirtimeBulkFile,
  validateAirtimeBulkRows,
} from '../../spreadsheets/index.js';
import { authenticate, type Caller } from '../auth/bearer.js';
import { holdBatch, runAirtimeBatch } from '../bulk/run-batch.js';
import { readBulkUpload } from '../bulk/upload.js';
import type { SandboxContext } from '../context.js';
import { clientError } from '../http/json-body.js';
import { atCapacity, sendError, sendValidationError } from '../http/replies.js';
import { toCents, toShillings } from '../money.js';

/** The platform's bulk import route ("customer/bulkpayment"; its sandbox shape is ours). */
export const AIRTIME_BULK_PATH = `${sandboxPrefixes.airtime}/customer/bulkpayment`;

/** Room for the multipart framing and the text fields around the file. */
const FRAMING_BYTES = 64 * 1024;

const NOT_MULTIPART =
  'Unsupported Content-Type: upload the file as multipart/form-data, in a field named "file" (an .xlsx or .csv), with an optional "batch_id" field.';

/** `customer/bulkpayment`: every row checked, the total held, then purchase rules 4–7 per row. */
export function registerAirtimeBulkRoute(app: FastifyInstance, context: SandboxContext): void {
  const limits = context.options.airtimeBulk;
  const callers = new WeakMap<FastifyRequest, Caller>();
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    await scope.register(multipart, {
      limits: { fileSize: limits.maxFileBytes },
      throwFileSizeLimit: true,
    });
    scope.addContentTypeParser('*', (_request, _payload, done) => {
      done(clientError(415, NOT_MULTIPART), undefined);
    });
    // Before the body is read: an unauthenticated or oversized upload is not read at all.
    scope.addHook('onRequest', async (request, reply) => {
      const caller = authenticate(context, 'airtime', request, reply);
      if (!caller) return reply;
      const length = Number(request.headers['content-length']);
      if (Number.isFinite(length) && length > limits.maxFileBytes + FRAMING_BYTES) {
        return sendError(
          reply,
          413,
          `The upload is ${length} bytes; a bulk file may be at most ${limits.maxFileBytes} bytes. Split it into smaller files.`,
        );
      }
      callers.set(request, caller);
    });
    scope.post(AIRTIME_BULK_PATH, async (request, reply) => {
      const caller = callers.get(request)!;
      if (!request.isMultipart()) return sendError(reply, 415, NOT_MULTIPART);
      const upload = await readBulkUpload(request, limits.maxFileBytes, reply);
      if (!upload) return reply;
      const { file, batchId: givenBatchId } = upload;
      const batchId = airtimeBulkBatchIdSchema.safeParse(givenBatchId ?? ulid());
      if (!batchId.success) {
        return sendValidationError(reply, { batch_id: batchId.error.issues.map((i) => i.message) });
      }
      let parsed: Awaited<ReturnType<typeof readAirtimeBulkFile>>;
      try {
        parsed = await readAirtimeBulkFile(file.bytes, {
          ...(file.fileName === undefined ? {} : { fileName: file.fileName }),
          maxRows: limits.maxRows,
        });
      } catch (error) {
        if (!isSpreadsheetError(error)) throw error;
        return sendValidationError(reply, { file: [error.message] }, error.code);
      }
      // 1. Every row, before anything happens: the purchase's own field rules and limit.
      const { rows, problems } = validateAirtimeBulkRows(parsed.rows);
      const lines = new Map(parsed.rows.map((row) => [row.row, row.line]));
      for (const row of rows) {
        if (row.amount <= context.options.maxAmount) continue;
        problems.push({
          row: row.row,
          line: lines.get(row.row)!,
          field: 'amount',
          message: `Row ${row.row} (line ${lines.get(row.row)}): The amount may not be greater than ${context.options.maxAmount}.`,
        } satisfies BulkRowProblem);
      }
      if (problems.length > 0) {
        problems.sort((a, b) => a.row - b.row);
        return sendValidationError(reply, bulkRowFieldErrors(problems));
      }
      // Room for every row's record, or none is made.
      const lastCount = context.airtime.payments.length + rows.length - 1;
      if (atCapacity(context, reply, 'airtime payments', lastCount)) return reply;
      // 2–3. The wallet must cover the whole file; every row's amount is held at once.
      const wallet = context.wallets.of('airtime', caller.account.id);
      const holds = holdBatch(wallet, rows);
      if (!holds) {
        const total = rows.reduce((sum, row) => sum + toCents(row.amount), 0);
        return sendValidationError(
          reply,
          {
            amount: [
              `The total of the ${rows.length} rows, TZS ${toShillings(total)}, is more than the wallet balance, TZS ${toShillings(wallet.available)}. Nothing was sent; recharge the wallet or send fewer rows.`,
            ],
          },
          'insufficient_funds',
        );
      }
      return runAirtimeBatch(context, {
        accountId: caller.account.id,
        batchId: batchId.data,
        rows,
        holds,
      });
    });
  });
}
