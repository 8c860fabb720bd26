export type { AirtimeBulkRowInput } from '../../spreadsheets/index.js';

/**
 * Where a row stands after a run.
 * - `success` — the airtime was delivered and the wallet debited (now or in an earlier run).
 * - `failed` — the platform gave a definite no (vendor refused, 4xx); nothing was debited.
 * - `unknown` — the request may have reached the platform but no answer was recorded (a lost
 *   answer, or a run that crashed mid-send). Never resent: `pesakit reconcile` or a person
 *   decides.
 * - `skipped` — never attempted (the batch stopped first, e.g. the wallet ran out): a rerun of
 *   the same batch id sends it.
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
  /** Rows sent to the platform by this run (the others were settled by an earlier run or skipped). */
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
  /**
   * The batch's id: each row is stored under `<batchId>:<row>`. Give the same id again to resume
   * a batch after a crash; omitted, one is generated (a ULID) and returned in the result.
   * 1–58 letters, digits or `_ - .` (no `:`).
   */
  batchId?: string;
  /**
   * Purchases in flight at once.
   * @default 4
   */
  concurrency?: number;
  /**
   * `'purchase'` (the default) sends each row as its own purchase: resumable row by row.
   * `'bulkpayment'` uploads the whole batch to the platform's `customer/bulkpayment` route in one
   * request and records each row from its answer; a lost answer leaves every row `unknown`.
   * @default 'purchase'
   */
  via?: 'purchase' | 'bulkpayment';
  /**
   * Check the wallet (`airtime.user()`) before sending and refuse the batch, nothing stored,
   * when the balance does not cover the rows still to send.
   * @default true
   */
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
