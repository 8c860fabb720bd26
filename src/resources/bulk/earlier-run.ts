import type { ReferenceStore, TransactionRecord } from '../../references/index.js';
import { maxReferencesPerRead } from '../../references/input-rules.js';
import { rowReference } from './batch-id.js';
import { BatchMismatchError, type BatchRowMismatch } from './batch-mismatch-error.js';
import type { BulkProduct, BulkRow } from './bulk-product.js';
import { instantText, paymentReferenceOf, rowFields, rowStatus } from './row-outcome.js';
import type { BulkRowOutcome } from './types.js';

/** What the store already knows of a batch: the rows an earlier run wrote, by row number. */
export type EarlierRows = Map<number, TransactionRecord>;

/**
 * Reads the batch's stored rows before anything is sent, and the row after the last, in reads of
 * up to 1,000 references; a stored row that differs from (or is past the end of) the file given
 * now refuses the batch: a reused id must not pay strangers.
 */
export async function readEarlierRun(
  store: Pick<ReferenceStore, 'records'>,
  product: BulkProduct,
  batchId: string,
  rows: readonly BulkRow[],
): Promise<EarlierRows> {
  const earlier: EarlierRows = new Map();
  const mismatches: BatchRowMismatch[] = [];
  const after = rows.length + 1;
  const references = [...rows.map((row) => row.row), after].map((row) =>
    rowReference(product.prefix, batchId, row),
  );
  const stored: Array<TransactionRecord | undefined> = [];
  for (let start = 0; start < references.length; start += maxReferencesPerRead) {
    stored.push(
      ...(await store.records.getMany(references.slice(start, start + maxReferencesPerRead))),
    );
  }
  for (const [index, row] of rows.entries()) {
    const record = stored[index];
    if (record === undefined) continue;
    if (!sameIntent(product, record, row)) {
      const { merchantReference, metadata } = record;
      const stored = intentOf(record.msisdn, record.amount, metadata['reference']);
      const given = intentOf(row.msisdn, row.amount, row.reference);
      mismatches.push({ row: row.row, merchantReference, stored, given });
      continue;
    }
    earlier.set(row.row, record);
  }
  if (mismatches.length > 0) throw new BatchMismatchError(batchId, mismatches);
  if (stored[rows.length] !== undefined) throw new BatchMismatchError(batchId, [], after);
  return earlier;
}

function intentOf<M>(msisdn: M, amount: number, reference: string | undefined) {
  return { msisdn, amount, ...(reference !== undefined ? { reference } : {}) };
}

function sameIntent(product: BulkProduct, record: TransactionRecord, row: BulkRow): boolean {
  return (
    record.flow === product.flow &&
    record.msisdn === row.msisdn &&
    record.amount === row.amount &&
    record.metadata['reference'] === row.reference &&
    record.metadata['name'] === row.name
  );
}

/**
 * An earlier run's row, reported and not sent: final records as they are; anything open is never
 * resent. The message says so, naming the batch and when the row was stored.
 */
export function earlierRowResult(
  product: BulkProduct,
  batchId: string,
  row: BulkRow,
  record: TransactionRecord,
): BulkRowOutcome {
  const status = rowStatus(product, record);
  const sent = `Already sent in batch ${batchId} at ${instantText(record.createdAt)}`;
  const reason = record.statusReason ?? undefined;
  const message =
    status === 'success' || status === 'failed'
      ? `${sent}: ${status}${reason !== undefined ? ` (${reason})` : ''}.`
      : record.status === 'initiating'
        ? `Stored in batch ${batchId} at ${instantText(record.createdAt)} and may have been ` +
          `sent; that run stopped before the answer: not resent. ${product.settledBy}`
        : record.status === 'needs_review'
          ? `${sent}: needs review: ${record.review?.message ?? reason ?? 'see the record'}`
          : `${sent}: ${status === 'pending' ? 'accepted, awaiting confirmation' : 'outcome unknown'} (${
              reason ?? record.status
            }): not resent. ${product.settledBy}`;
  const paymentReference = paymentReferenceOf(record);
  return {
    ...rowFields(row, record.merchantReference),
    status,
    ...(paymentReference !== undefined ? { paymentReference } : {}),
    message,
    fromEarlierRun: true,
  };
}
