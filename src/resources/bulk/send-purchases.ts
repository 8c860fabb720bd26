import PQueue from 'p-queue';
import type { ReferenceStore } from '../../references/index.js';
import type { MoneyMovementOptions } from '../move-money.js';
import { rowReference } from './batch-id.js';
import type { NumberedRow } from './load-rows.js';
import { answeredRow, rowFields, rowMetadata, thrownRow } from './row-outcome.js';
import type { AirtimeBulkRowOutcome } from './types.js';

/** `airtime.purchase`, as the batch calls it (the same write-ahead path as a single sale). */
export type Purchase = (
  request: { msisdn: string; amount: number },
  options: MoneyMovementOptions,
) => Promise<{ status: string; message: string; payment?: { reference: string } | undefined }>;

export interface SendPurchasesInput {
  batchId: string;
  rows: readonly NumberedRow[];
  purchase: Purchase;
  store: ReferenceStore;
  concurrency: number;
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  onRow: (result: AirtimeBulkRowOutcome) => void;
}

/**
 * Sends each row as its own purchase, in row order. A purchase without an answer of its own stops
 * the batch (rows not started are `skipped`); a vendor refusal is that row's `failed`.
 */
export async function sendPurchases(input: SendPurchasesInput): Promise<void> {
  const queue = new PQueue({ concurrency: input.concurrency });
  const finished = new Set<number>();
  let stoppedBy: string | undefined;
  const stop = (why: string) => {
    if (stoppedBy !== undefined) return;
    stoppedBy = why;
    queue.clear();
  };
  const onAbort = () => stop('the batch was aborted');
  input.signal?.addEventListener('abort', onAbort, { once: true });
  if (input.signal?.aborted) onAbort();

  for (const row of input.rows) {
    if (stoppedBy !== undefined) break;
    void queue.add(async () => {
      if (stoppedBy !== undefined) return;
      const merchantReference = rowReference(input.batchId, row.row);
      let result: AirtimeBulkRowOutcome;
      try {
        const answer = await input.purchase(
          { msisdn: row.msisdn, amount: row.amount },
          {
            merchantReference,
            metadata: rowMetadata(input.batchId, row),
            ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
          },
        );
        result = answeredRow(row, merchantReference, answer);
      } catch (error) {
        const record = await input.store.get(merchantReference).catch(() => null);
        result = thrownRow(row, merchantReference, error, record);
        stop(`the batch stopped at row ${row.row}: ${result.error?.message ?? result.message}`);
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
      ...rowFields(row, rowReference(input.batchId, row.row)),
      status: 'skipped',
      message: `Not sent: ${stoppedBy ?? 'the batch stopped'}. A rerun of the same batch id sends it.`,
    });
  }
}
