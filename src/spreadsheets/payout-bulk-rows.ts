import {
  PAYOUT_BULK_MAX_ROWS,
  type PayoutBulkRow,
  payoutBulkRowSchema,
} from '../schemas/payout-bulk.js';
import type { BulkRowProblem } from './airtime-bulk-rows.js';
import { validateBulkRows } from './airtime-bulk-rows.js';
import { type ReadSheetOptions, readSheetRows } from './read-sheet.js';

/** A payout row given in code (an array source): what `disbursement.pay` takes, plus a label. */
export type PayoutBulkRowInput = PayoutBulkRow;

const payoutColumns = {
  msisdn: 'text',
  amount: 'number',
  name: 'text',
  reference: 'optional text',
} as const;

/** A payout file's row as read, unjudged. */
export interface ParsedPayoutBulkRow {
  row: number;
  line: number;
  msisdn: string;
  amount: number | string;
  name: string;
  reference?: string;
}

/** Reads a bulk payout `.xlsx`/`.csv` (`msisdn`, `amount`, `name`, `reference?`); does not judge rows. */
export function readPayoutBulkFile(bytes: Uint8Array, options: ReadSheetOptions = {}) {
  const maxRows = options.maxRows ?? PAYOUT_BULK_MAX_ROWS;
  return readSheetRows<ParsedPayoutBulkRow>(bytes, payoutColumns, { ...options, maxRows });
}

/** Judges every payout row at once; a row repeating an earlier one is refused (paid twice). */
export function validatePayoutBulkRows(rows: ReadonlyArray<{ row: number; line?: number }>): {
  rows: Array<PayoutBulkRow & { row: number }>;
  problems: BulkRowProblem[];
} {
  return validateBulkRows(rows, payoutBulkRowSchema, payoutColumns, true);
}
