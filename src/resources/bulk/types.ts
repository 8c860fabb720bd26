export type { PayoutBulkRow } from '../../schemas/payout-bulk.js';
export type { AirtimeBulkRowInput } from '../../spreadsheets/index.js';

/**
 * A row after a run: `success` (debited), `failed` (a definite no, nothing debited), `pending`
 * (payouts: accepted, awaiting the payout history's confirmation — the reconciler or
 * `disbursement.status(ref)` confirms it), `unknown` (may have been sent; never resent, reconcile
 * it), `skipped` (never attempted; a rerun sends it).
 */
export type BulkRowStatus = 'success' | 'failed' | 'pending' | 'unknown' | 'skipped';
export type AirtimeBulkOutcomeStatus = Exclude<BulkRowStatus, 'pending'>;

/** One row's outcome, in the result and in the `row` event. */
export interface BulkRowOutcome {
  /** 1-based position of the data row (the first row under the header is row 1). */
  row: number;
  msisdn: string;
  amount: number;
  /** The payee's name (payouts). */
  name?: string;
  reference?: string;
  /** `airtime:<batchId>:<row>` or `payout:<batchId>:<row>`: the record in the reference store. */
  merchantReference: string;
  status: BulkRowStatus;
  /** The platform's reference for the payment, when it gave one. */
  paymentReference?: string;
  /** Why: the platform's message, or what pesakit saw. */
  message?: string;
  /** The error that ended this row's send, when there was one (secrets redacted). */
  error?: Error;
  /** True when the row's record was already in the store: this run reported it, did not send it. */
  fromEarlierRun: boolean;
}
export type AirtimeBulkRowOutcome = BulkRowOutcome;

/** Running counts, in the `progress` event and the result. */
export interface BulkTotals {
  /** Rows in the batch. */
  rows: number;
  /** TZS over every row of the batch. */
  amount: number;
  /** TZS of the rows that succeeded, in this run or an earlier one of the batch (charges aside). */
  amountSucceeded: number;
  /** TZS of the rows this run sent that succeeded (charges aside): 0 when it sent nothing. */
  amountSucceededNow: number;
  /** Rows that have an outcome so far (only in `progress`, equal to `rows` at the end). */
  done: number;
  succeeded: number;
  failed: number;
  pending: number;
  unknown: number;
  skipped: number;
  /** Rows this run sent to the platform. */
  sent: number;
}
export type AirtimeBulkTotals = BulkTotals;

/** Why a run stopped before sending every row; rows not sent are `skipped`, a rerun sends them. */
export type BulkStopReason = 'insufficient_funds' | 'aborted' | 'row_error';

export interface BulkResult {
  batchId: string;
  /** Every row, in row order. */
  rows: BulkRowOutcome[];
  totals: BulkTotals;
  stoppedFor?: BulkStopReason;
}

export interface AirtimeBulkResult extends BulkResult {
  /** How the rows went out: one purchase each, or one upload to the bulkpayment route. */
  via: 'purchase' | 'bulkpayment';
}
export type DisbursementBulkResult = BulkResult;

/** Options of every bulk send. */
export interface BulkOptions {
  /**
   * Rows are stored as `<product>:<batchId>:<row>`; the same id resumes the batch, at any age.
   * 1–50 letters, digits, `_ - .`. Give a new one to pay the same rows again (next month's run).
   * @default derived from the rows (`rows-` and a hash of each row's number, MSISDN, amount,
   * name and reference): the same rows resume a run started in the last 24 hours; a later run,
   * or one with every row already recorded, is refused with `BatchAlreadyRunError`
   */
  batchId?: string;
  /** Rows in flight at once. @default 4 */
  concurrency?: number;
  /** Spreadsheet format of a Buffer/file source, when its content and name do not tell. */
  format?: 'xlsx' | 'csv';
  /** Stops sending: rows not yet sent are `skipped`; rows in flight finish as they do. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for each row. */
  timeoutMs?: number;
}

/** Options of `pesakit.airtime.bulkPurchase`. */
export interface AirtimeBulkOptions extends BulkOptions {
  /**
   * `'purchase'`: one resumable purchase per row; `'bulkpayment'`: one upload of the batch (a lost
   * answer leaves every row `unknown`). @default 'purchase'
   */
  via?: 'purchase' | 'bulkpayment';
  /** Refuse the batch, nothing stored, when the wallet does not cover it. @default true */
  checkBalance?: boolean;
}

/** Options of `pesakit.disbursement.bulkPay`. */
export interface DisbursementBulkOptions extends BulkOptions {
  /**
   * When the free float does not cover every row: send rows in order while they fit, stop at the
   * first that does not (`stoppedFor: 'insufficient_funds'`). @default false (refuse the batch)
   */
  partial?: boolean;
  /**
   * The charge of a payout of `amount` TZS, for the float check. @default 1 % rounded up to a whole
   * shilling, at least 100 TZS (the sandbox's rule; the platform does not publish its formula)
   */
  charges?: (amount: number) => number;
}

/** The events a running batch emits. */
export interface BulkEvents {
  /** A row's outcome is known (or, for a rerun, was found in the store). */
  row: [result: BulkRowOutcome];
  /** After every row: the running counts. */
  progress: [totals: BulkTotals];
}
export type AirtimeBulkEvents = BulkEvents;
