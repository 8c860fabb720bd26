import type { Flow, TransactionRecord } from '../../references/index.js';
import type { WalletReservation } from '../../references/wallet-float.js';
import type { BulkRowProblem } from '../../spreadsheets/index.js';
import type { SheetColumns } from '../../spreadsheets/read-sheet.js';

/** A valid row with its 1-based position; `name` for payouts. */
export interface BulkRow {
  row: number;
  msisdn: string;
  amount: number;
  name?: string | undefined;
  reference?: string | undefined;
}

/** A row as read from a file or given in code, not yet judged. */
export type UncheckedRow = { row: number; line?: number };

/** How one row goes out: its reference, what its record keeps, and the float it holds. */
export interface RowSend {
  merchantReference: string;
  metadata: Record<string, string>;
  timeoutMs?: number;
  reservation?: WalletReservation;
}

/** Sends one row by the product's own write-ahead call; resolves with the stored record. */
export type SendRow = (
  row: BulkRow,
  options: RowSend,
) => Promise<{ record: TransactionRecord; message: string }>;

/** What differs between the products one bulk engine sends, besides the call: data and checks. */
export interface BulkProduct {
  /** Names the operation in validation errors. */
  operation: 'airtimeBulkPurchase' | 'disbursementBulkPay';
  /** Row references are `<prefix>:<batchId>:<row>`. */
  prefix: 'airtime' | 'payout';
  flow: Extract<Flow, 'airtime_purchase' | 'disbursement'>;
  /** The columns read from a file or a row given in code (any other is ignored). */
  columns: SheetColumns;
  maxRows: number;
  maxFileBytes: number;
  validate(rows: readonly UncheckedRow[]): { rows: BulkRow[]; problems: BulkRowProblem[] };
  /** What a record still open after its answer is: payouts await the history, airtime cannot. */
  openAfterAnswer: 'pending' | 'unknown';
  /** How an open row of an earlier run gets settled, for its message. */
  settledBy: string;
}
