export type { AirtimeBulkRowInput } from '../../spreadsheets/index.js';

/**
 * A row after a run: `success` (debited), `failed` (a definite no, nothing debited), `unknown`
 * (may have been sent; never resent, reconcile it), `skipped` (never attempted; a rerun sends it).
 */
export type AirtimeBulkOutcomeStatus = 'success' | 'failed' | 'unknown' | 'skipped';

/** One row's outcome, in the result and in the `row` event. */
export interface AirtimeBulkRowOutcome {
  /** 1-based position of the data row (the first row under the header is row 1). */
  row: number;
  msisdn: string;
  amount: number;
  reference?: string;
  /** `<batchId>:<row>`: the record in the reference store. */
  merchantReference: string;
  status: AirtimeBulkOutcomeStatus;
  /** The platform's payment reference, when it gave one. */
  paymentReference?: string;
  /** Why: the platform's message, or what pesakit saw. */
  message?: string;
  /** The error that ended this row's send, when there was one (secrets redacted). */
  error?: Error;
  /** True when the row's record was already in the store: this run reported it, did not send it. */
  fromEarlierRun: boolean;
}

/** Running counts, in the `progress` event and the result. */
export interface AirtimeBulkTotals {
  /** Rows in the batch. */
  rows: number;
  /** TZS over every row of the batch. */
  amount: number;
  /** TZS of the rows that succeeded: what left the wallet. */
  amountSucceeded: number;
  /** Rows that have an outcome so far (only in `progress`, equal to `rows` at the end). */
  done: number;
  succeeded: number;
  failed: number;
  unknown: number;
  skipped: number;
  /** Rows this run sent to the platform. */
  sent: number;
}

export interface AirtimeBulkResult {
  batchId: string;
  /** Every row, in row order. */
  rows: AirtimeBulkRowOutcome[];
  totals: AirtimeBulkTotals;
  /** How the rows went out: one purchase each, or one upload to the bulkpayment route. */
  via: 'purchase' | 'bulkpayment';
}

/** Options of `pesakit.airtime.bulkPurchase`. */
export interface AirtimeBulkOptions {
  /** Rows are stored as `<batchId>:<row>`; reuse to resume. 1–58 letters, digits, `_ - .`. */
  batchId?: string;
  /** Purchases in flight at once. @default 4 */
  concurrency?: number;
  /**
   * `'purchase'`: one resumable purchase per row; `'bulkpayment'`: one upload of the batch (a lost
   * answer leaves every row `unknown`). @default 'purchase'
   */
  via?: 'purchase' | 'bulkpayment';
  /** Refuse the batch, nothing stored, when the wallet does not cover it. @default true */
  checkBalance?: boolean;
  /** Spreadsheet format of a Buffer/file source, when its content and name do not tell. */
  format?: 'xlsx' | 'csv';
  /** Stops sending: rows not yet sent are `skipped`; rows in flight finish as they do. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for each purchase. */
  timeoutMs?: number;
}

/** The events a running batch emits. */
export interface AirtimeBulkEvents {
  /** A row's outcome is known (or, for a rerun, was found in the store). */
  row: [result: AirtimeBulkRowOutcome];
  /** After every row: the running counts. */
  progress: [totals: AirtimeBulkTotals];
}
