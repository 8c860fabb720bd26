import PQueue from 'p-queue';
import { isBadRequestError } from '../../errors/bad-request-error.js';
import { isInsufficientFundsError } from '../../errors/insufficient-funds-error.js';
import type { ReferenceStore } from '../../references/index.js';
import { rowReference } from './batch-id.js';
import type { BulkProduct, BulkRow, SendRow } from './bulk-product.js';
import type { BulkFloat } from './float.js';
import { answeredRow, rowFields, rowMetadata, thrownRow } from './row-outcome.js';
import type { BulkRowOutcome, BulkStopReason } from './types.js';

export interface SendRowsInput {
  product: BulkProduct;
  send: SendRow;
  batchId: string;
  rows: readonly BulkRow[];
  store: ReferenceStore;
  concurrency: number;
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  /** With an `account`, each row holds its cost of the float in the store with its intent. */
  float: BulkFloat | undefined;
  onRow: (result: BulkRowOutcome) => void;
}

/**
 * Sends each row by the product's own call, in row order. A row the platform refused outright
 * (400) is that row's `failed` and the batch goes on; too little float, an abort, or a send without
 * an answer of its own stops the batch: rows not started are `skipped`, and a rerun sends them.
 */
export async function sendRows(input: SendRowsInput): Promise<BulkStopReason | undefined> {
  const { product, batchId, float } = input;
  const account = float?.account;
  const queue = new PQueue({ concurrency: input.concurrency });
  const finished = new Set<number>();
  let stopped: { reason: BulkStopReason; why: string } | undefined;
  const stop = (reason: BulkStopReason, why: string) => {
    if (stopped !== undefined) return;
    stopped = { reason, why };
    queue.clear();
  };
  const onAbort = () => stop('aborted', 'the batch was aborted');
  input.signal?.addEventListener('abort', onAbort, { once: true });
  if (input.signal?.aborted) onAbort();

  for (const row of input.rows) {
    if (stopped !== undefined) break;
    void queue.add(async () => {
      if (stopped !== undefined) return;
      const merchantReference = rowReference(product.prefix, batchId, row.row);
      let result: BulkRowOutcome;
      try {
        const { record, message } = await input.send(row, {
          merchantReference,
          metadata: rowMetadata(batchId, row),
          ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
          ...(account !== undefined && float
            ? { reservation: { account, amount: float.cost(row) / 100 } }
            : {}),
        });
        result = answeredRow(product, row, record, message);
      } catch (error) {
        const record = await input.store.records.get(merchantReference).catch(() => null);
        result = thrownRow(product, row, merchantReference, error, record);
        const refused = result.status === 'failed' && isBadRequestError(error);
        if (!refused) {
          const reason = isInsufficientFundsError(error) ? 'insufficient_funds' : 'row_error';
          stop(
            reason,
            `the batch stopped at row ${row.row}: ${result.error?.message ?? result.message}`,
          );
        }
      }
      finished.add(row.row);
      input.onRow(result);
    });
  }
  await queue.onIdle();
  input.signal?.removeEventListener('abort', onAbort);
  for (const row of input.rows) {
    if (finished.has(row.row)) continue;
    input.onRow({
      ...rowFields(row, rowReference(product.prefix, batchId, row.row)),
      status: 'skipped',
      message: `Not sent: ${stopped?.why ?? 'the batch stopped'}. A rerun of the same batch id sends it.`,
    });
  }
  return stopped?.reason;
}
