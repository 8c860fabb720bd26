import { type PayoutBulkRow, payoutBulkRowSchema } from '../schemas/payout-bulk.js';
import type { BulkRowProblem } from './airtime-bulk-rows.js';
import { validateBulkRows } from './airtime-bulk-rows.js';

/** A payout row given in code (an array source): what `disbursement.pay` takes, plus a label. */
export type PayoutBulkRowInput = PayoutBulkRow;

/** A payout file's columns: `msisdn`, `amount`, `name`, `reference?`. */
export const payoutBulkColumns = {
  msisdn: 'text',
  amount: 'number',
  name: 'text',
  reference: 'optional text',
} as const;

/** Judges every payout row at once; a row repeating an earlier one is refused (paid twice). */
export function validatePayoutBulkRows(rows: ReadonlyArray<{ row: number; line?: number }>): {
  rows: Array<PayoutBulkRow & { row: number }>;
  problems: BulkRowProblem[];
} {
  return validateBulkRows(rows, payoutBulkRowSchema, payoutBulkColumns, true);
}
