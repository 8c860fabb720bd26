import { isAmbiguousOutcomeError } from '../../errors/ambiguous-outcome-error.js';
import type { TransactionRecord } from '../../references/index.js';
import type { NumberedRow } from './load-rows.js';
import type { AirtimeBulkOutcomeStatus, AirtimeBulkRowOutcome } from './types.js';

/** The row's fields every result repeats. */
export function rowFields(row: NumberedRow, merchantReference: string) {
  return {
    row: row.row,
    msisdn: row.msisdn,
    amount: row.amount,
    ...(row.reference !== undefined ? { reference: row.reference } : {}),
    merchantReference,
    fromEarlierRun: false,
  };
}

/** What a row's record keeps besides the purchase: its batch, row and the file's reference. */
export function rowMetadata(batchId: string, row: NumberedRow): Record<string, string> {
  const reference = row.reference !== undefined ? { reference: row.reference } : {};
  return { batchId, row: String(row.row), ...reference };
}

/** The platform's answer to one purchase: `success` and `failed` are final, anything else open. */
export function answeredRow(
  row: NumberedRow,
  merchantReference: string,
  answer: { status: string; message: string; payment?: { reference: string } | undefined },
): AirtimeBulkRowOutcome {
  const status: AirtimeBulkOutcomeStatus =
    answer.status === 'success' ? 'success' : answer.status === 'failed' ? 'failed' : 'unknown';
  return {
    ...rowFields(row, merchantReference),
    status,
    ...(answer.payment ? { paymentReference: answer.payment.reference } : {}),
    message: answer.message,
  };
}

/**
 * A purchase that threw, judged by its record: none means nothing was sent (free for a rerun);
 * `failed` is a definite no; anything else, or an unreadable store (`null`), is `unknown`.
 */
export function thrownRow(
  row: NumberedRow,
  merchantReference: string,
  error: unknown,
  record: TransactionRecord | undefined | null,
): AirtimeBulkRowOutcome {
  const asError = error instanceof Error ? error : new Error(String(error));
  const final = record?.status === 'failed' || record?.status === 'success' ? record.status : null;
  const status: AirtimeBulkOutcomeStatus = record === undefined ? 'skipped' : (final ?? 'unknown');
  const message =
    status === 'skipped'
      ? `Not sent: ${asError.message}`
      : status === 'unknown' && isAmbiguousOutcomeError(error)
        ? 'No answer: the purchase may have gone through. Not resent; `pesakit reconcile` hands ' +
          'it to review.'
        : (record?.statusReason ?? asError.message);
  return {
    ...rowFields(row, merchantReference),
    status,
    ...(record?.paymentReference ? { paymentReference: record.paymentReference } : {}),
    message,
    error: asError,
  };
}
