import type { Environment, Product } from '../core/endpoints.js';
import type { EffectOutbox, EffectState } from './effects.js';
import type { CallbackInbox } from './inbox/types.js';
import type { OperationsReport, OperationsReportOptions } from './operations-report.js';
import type { Resolution, ReviewQueue, ReviewVerdict } from './review.js';
import type { SchedulingStore } from './schedule/types.js';
import type { WalletFloat, WalletReservation } from './wallet-float.js';

/**
 * `initiating` (stored, being sent), `pending` (accepted, outcome not known), `unknown` (no
 * answer came back: only the reconciler resolves it, never treated as failed), `needs_review`
 * (only `store.resolve()` leaves it), `success` and `failed` (final).
 */
/**
 * The platform account a record was sent with, for `record.product`. The platform shows a
 * transaction only to the account that made it (a 404 to any other, and no row in another
 * account's payout history), and a sandbox and production are two platforms: a record of
 * another account or environment cannot be pulled, only misread as "not there yet".
 */
export interface RecordAccount {
  /** `sandbox` or `production`: the client's `environment`. */
  readonly environment: Environment;
  /**
   * The email the product's credentials log in with, lower-cased; `null` when the request
   * carried no login (a token set with `setToken`, or a route that takes none: secure checkout,
   * pay_mobile), so that any account of the environment may pull it. Never a secret.
   */
  readonly login: string | null;
}

export type TransactionStatus =
  | 'initiating'
  | 'pending'
  | 'unknown'
  | 'needs_review'
  | 'success'
  | 'failed';

/** Which of the platform's operations started the transaction. */
export type Flow =
  | 'mno'
  | 'bank'
  | 'secure'
  | 'pay_mobile'
  | 'checkout_mno'
  | 'airtime_purchase'
  | 'airtime_recharge'
  | 'disbursement';

/** The platform's references for one transaction, each kind kept apart (spec general rule 9). */
export interface References {
  controlNumber?: string;
  paymentReference?: string;
  externalReference?: string;
  txnid?: string;
  refid?: string;
}

export type PlatformReferenceField = keyof References;

export type ReferenceField = 'merchantReference' | PlatformReferenceField;

/** One transaction as the store remembers it. Records returned by a store are copies. */
export interface TransactionRecord {
  merchantReference: string;
  product: Product;
  flow: Flow;
  /** TZS, at most two decimals; stored exactly (whole cents). */
  amount: number;
  msisdn: string | null;
  /** The mobile operator (from the MSISDN, e.g. `vodacom`) or a callback's provider name. */
  provider: string | null;
  status: TransactionStatus;
  statusReason: string | null;
  controlNumber: string | null;
  paymentReference: string | null;
  externalReference: string | null;
  txnid: string | null;
  refid: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When the record left `initiating`. */
  attemptedAt: Date | null;
  /** When the record became `success` or `failed` (by an answer, a pull or a person). */
  finalAt: Date | null;
  lastCheckedAt: Date | null;
  checkCount: number;
  lastPayload: unknown;
  metadata: Record<string, string>;
  /**
   * The account and environment the record was sent with; a reconciler, receiver or status
   * call of another one does not pull it (`not_visible`). `null`: written before records knew
   * their account, treated as every client's.
   */
  account: RecordAccount | null;
  /** Why the record went to `needs_review` (kept after it is resolved). */
  review: ReviewVerdict | null;
  resolution: Resolution | null;
  effect: EffectState;
}

/** What the merchant is about to ask the platform for, stored before the request is sent. */
export interface TransactionIntent {
  merchantReference: string;
  product: Product;
  flow: Flow;
  amount: number;
  msisdn?: string;
  metadata?: Record<string, string>;
  /** The account and environment the request is sent with (`pesakit` fills it in). */
  account?: RecordAccount;
  /** Float to hold for a payout until it is final; refused when the wallet's free float is short. */
  reservation?: WalletReservation;
}

export interface TransitionDetails {
  /** The upstream payload that proved the change. */
  payload?: unknown;
  reason?: string;
  /** @default now */
  at?: Date;
  /** The lease's fencing token (`leaseDue`): written only while it holds, else `LeaseLostError`. */
  leaseToken?: string;
  /** Required when moving to `needs_review`. */
  review?: ReviewVerdict;
  /** The provider the answer or callback names; kept only when the record has none yet. */
  provider?: string;
}

/** How many records each product has in each status, and how old the oldest open one is. */
export interface StoreSummary {
  counts: { product: Product; status: TransactionStatus; count: number }[];
  /** `createdAt` of the oldest `initiating`, `pending` or `unknown` record; null when none. */
  oldestOpenAt: Date | null;
}

export interface ListOpenOptions {
  /** @default ['initiating', 'pending', 'unknown'] */
  statuses?: readonly TransactionStatus[];
  product?: Product;
  /** Only records never checked, or last checked before this instant. */
  checkedBefore?: Date;
  /** @default 100 */
  limit?: number;
  /** Oldest created first (what a person reads), not the reconciler's order. @default false */
  oldestFirst?: boolean;
  /** With `oldestFirst`: the records after this one (the last of the page before). */
  after?: { createdAt: Date; merchantReference: string };
}

/** The records: the write-ahead intent, references, status moves and lookups. */
export interface TransactionRecords {
  /** Write-ahead: stored BEFORE the request is sent. A duplicate → `DuplicateReferenceError`. */
  createIntent(intent: TransactionIntent): Promise<TransactionRecord>;
  /**
   * The same value again is a no-op; another value for a known field, or a value another record
   * owns under any kind → `ReferenceConflictError`, and none of `refs` is attached.
   */
  attachReferences(merchantReference: string, refs: References): Promise<TransactionRecord>;
  /** The current status is a no-op; a move not in `allowedTransitions` → `InvalidTransitionError`. */
  transition(
    merchantReference: string,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }>;
  /** `attachReferences` then `transition` in one commit, failing as the two calls in turn would. */
  attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }>;
  get(merchantReference: string): Promise<TransactionRecord | undefined>;
  /**
   * `get` for up to 1,000 merchant references in one read: the records in the order asked,
   * `undefined` where none is stored.
   */
  getMany(merchantReferences: readonly string[]): Promise<Array<TransactionRecord | undefined>>;
  /** By any reference kind: the merchant reference first, then the platform's in field order. */
  findByReference(reference: string): Promise<TransactionRecord | undefined>;
  find(by: { field: ReferenceField; value: string }): Promise<TransactionRecord | undefined>;
  /** Never-checked first, then the oldest check, then the oldest created. */
  listOpen(options?: ListOpenOptions): Promise<TransactionRecord[]>;
  recordCheck(merchantReference: string, at?: Date): Promise<TransactionRecord>;
  /** Counts by product and status, for operations (metrics, the dashboard). */
  summarize(): Promise<StoreSummary>;
  /** Finals per hour over the window, and each operator's health over the last 24 hours. */
  operationsReport(options?: OperationsReportOptions): Promise<OperationsReport>;
}

/**
 * Every transaction pesakit starts, moved forward to a final state. Bad input → `StoreInputError`,
 * nothing stored; an unknown merchant reference → `TransactionNotFoundError`.
 */
export interface ReferenceStore
  extends TransactionRecords,
    ReviewQueue,
    EffectOutbox,
    SchedulingStore,
    WalletFloat {
  readonly inbox: CallbackInbox;
  /** A closed store must not be used again. */
  close(): Promise<void>;
}
