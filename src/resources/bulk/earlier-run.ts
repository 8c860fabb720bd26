import type { ReferenceStore, TransactionRecord } from '../../references/index.js';
import { rowReference } from './batch-id.js';
import { BatchMismatchError, type BatchRowMismatch } from './batch-mismatch-error.js';
import type { NumberedRow } from './load-rows.js';
import { rowFields } from './row-outcome.js';
import type { AirtimeBulkRowOutcome } from './types.js';

/** What the store already knows of a batch: the rows an earlier run wrote, by row number. */
export type EarlierRows = Map<number, TransactionRecord>;

/**
 * Reads the batch's stored rows before anything is sent; a stored row that differs from (or is
 * past the end of) the file given now refuses the batch: a reused id must not pay strangers.
 */
export async function readEarlierRun(
  store: ReferenceStore,
  batchId: string,
  rows: readonly NumberedRow[],
): Promise<EarlierRows> {
  const earlier: EarlierRows = new Map();
  const mismatches: BatchRowMismatch[] = [];
  for (const row of rows) {
    const record = await store.get(rowReference(batchId, row.row));
    if (record === undefined) continue;
    if (!sameIntent(record, row)) {
      mismatches.push({
        row: row.row,
        merchantReference: record.merchantReference,
        stored: {
          msisdn: record.msisdn,
          amount: record.amount,
          ...(record.metadata['reference'] !== undefined
            ? { reference: record.metadata['reference'] }
            : {}),
        },
        given: {
          msisdn: row.msisdn,
          amount: row.amount,
          ...(row.reference !== undefined ? { reference: row.reference } : {}),
        },
      });
      continue;
    }
    earlier.set(row.row, record);
  }
  if (mismatches.length > 0) throw new BatchMismatchError(batchId, mismatches);
  const after = rows.length + 1;
  if (await store.get(rowReference(batchId, after))) {
    throw new BatchMismatchError(batchId, [], after);
  }
  return earlier;
}

function sameIntent(record: TransactionRecord, row: NumberedRow): boolean {
  return (
    record.product === 'airtime' &&
    record.flow === 'airtime_purchase' &&
    record.msisdn === row.msisdn &&
    record.amount === row.amount &&
    record.metadata['reference'] === row.reference
  );
}

/** An earlier run's row: final records as they are; anything open is `unknown`, never resent. */
export function earlierRowResult(
  row: NumberedRow,
  record: TransactionRecord,
): AirtimeBulkRowOutcome {
  const status =
    record.status === 'success' ? 'success' : record.status === 'failed' ? 'failed' : 'unknown';
  const message =
    status !== 'unknown'
      ? (record.statusReason ?? undefined)
      : record.status === 'initiating'
        ? 'An earlier run stored this row and may have sent it, then stopped before the answer: ' +
          'not resent. The platform has no purchase status route: `pesakit reconcile` hands it to ' +
          'review (`pesakit review`) for a person to decide.'
        : record.status === 'needs_review'
          ? `Needs review: ${record.review?.message ?? record.statusReason ?? 'see the record'}`
          : `Outcome unknown (${record.statusReason ?? record.status}): not resent.`;
  return {
    ...rowFields(row, record.merchantReference),
    status,
    ...(record.paymentReference !== null ? { paymentReference: record.paymentReference } : {}),
    ...(message !== undefined ? { message } : {}),
    fromEarlierRun: true,
  };
}
