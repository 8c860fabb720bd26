import type { Product } from '../schemas/product.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import type { EffectOutbox } from './effects.js';
import type { CallbackInbox } from './inbox/types.js';
import type { OperationsReport, OperationsReportOptions } from './operations-report.js';
import type { SharedRateLimit } from './rate-limit/types.js';
import type {
  Flow,
  RecordAccount,
  ReferenceField,
  References,
  TransactionRecord,
} from './record.js';
import type { ReviewVerdict } from './review.js';
import type { SchedulingStore } from './schedule/types.js';
import type { WalletFloat, WalletReservation } from './wallet-float.js';

/** A committed move: the record after it, whether the status changed, and the status it left. */
export interface StatusMove {
  record: TransactionRecord;
  changed: boolean;
  from: TransactionStatus;
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

export interface ResolveOptions {
  /** Why: kept with the record for the audit trail. */
  note: string;
  by?: string;
  /** @default now */
  at?: Date;
}

export interface ReviewQueue {
  /** From `needs_review` only (else `InvalidTransitionError`); makes the effect due again. */
  resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord>;
  listReview(options?: { limit?: number; after?: string }): Promise<TransactionRecord[]>;
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
  /**
   * The current status is a no-op; a move not in `allowedTransitions` → `InvalidTransitionError`.
   * pesakit moves records only through its ledger, which publishes each committed change.
   */
  transition(
    merchantReference: string,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<StatusMove>;
  /** `attachReferences` then `transition` in one commit, failing as the two calls in turn would. */
  attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<StatusMove>;
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
  /** The platform's rate limit of each merchant account, shared by every process on the store. */
  readonly rateLimit: SharedRateLimit;
  /** A closed store must not be used again. */
  close(): Promise<void>;
}
