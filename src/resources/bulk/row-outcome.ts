import { isAmbiguousOutcomeError } from '../../errors/ambiguous-outcome-error.js';
import type { TransactionRecord } from '../../references/index.js';
import type { BulkProduct, BulkRow } from './bulk-product.js';
import type { BulkRowOutcome, BulkRowStatus } from './types.js';

/** The row's fields every result repeats. */
export function rowFields(row: BulkRow, merchantReference: string) {
  return {
    row: row.row,
    msisdn: row.msisdn,
    amount: row.amount,
    ...(row.name !== undefined ? { name: row.name } : {}),
    ...(row.reference !== undefined ? { reference: row.reference } : {}),
    merchantReference,
    fromEarlierRun: false,
  };
}

/** What a row's record keeps besides the payment: its batch, row, name and the file's reference. */
export function rowMetadata(batchId: string, row: BulkRow): Record<string, string> {
  return {
    batchId,
    row: String(row.row),
    ...(row.name !== undefined ? { name: row.name } : {}),
    ...(row.reference !== undefined ? { reference: row.reference } : {}),
  };
}

/** A time as messages show it: UTC, to the second (`2026-11-25T08:00:00Z`). */
export function instantText(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The platform's reference a person looks the payment up by: engine reference, else `refid`. */
export function paymentReferenceOf(record: TransactionRecord): string | undefined {
  return record.paymentReference ?? record.refid ?? undefined;
}

/** A row's status by its record: final as it is, `pending` as the product says, else `unknown`. */
export function rowStatus(product: BulkProduct, record: TransactionRecord): BulkRowStatus {
  const { status } = record;
  if (status === 'success' || status === 'failed') return status;
  return status === 'pending' ? product.openAfterAnswer : 'unknown';
}

/** A row answered by the platform, judged by the record its answer left. */
export function answeredRow(
  product: BulkProduct,
  row: BulkRow,
  record: TransactionRecord,
  message: string,
): BulkRowOutcome {
  const paymentReference = paymentReferenceOf(record);
  return {
    ...rowFields(row, record.merchantReference),
    status: rowStatus(product, record),
    ...(paymentReference !== undefined ? { paymentReference } : {}),
    message,
  };
}

/**
 * A send that threw, judged by its record: none means nothing was sent (free for a rerun);
 * `failed` is a definite no; anything else, or an unreadable store (`null`), is `unknown`.
 */
export function thrownRow(
  product: BulkProduct,
  row: BulkRow,
  merchantReference: string,
  error: unknown,
  record: TransactionRecord | undefined | null,
): BulkRowOutcome {
  const asError = error instanceof Error ? error : new Error(String(error));
  const final = record?.status === 'failed' || record?.status === 'success' ? record.status : null;
  const status: BulkRowStatus = record === undefined ? 'skipped' : (final ?? 'unknown');
  const message =
    status === 'skipped'
      ? `Not sent: ${asError.message}`
      : status === 'unknown' && isAmbiguousOutcomeError(error)
        ? `No answer: the payment may have gone through. Not resent; ${product.settledBy}`
        : (record?.statusReason ?? asError.message);
  const paymentReference = record ? paymentReferenceOf(record) : undefined;
  return {
    ...rowFields(row, merchantReference),
    status,
    ...(paymentReference !== undefined ? { paymentReference } : {}),
    message,
    error: asError,
  };
}
