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
import type { Resolution, ReviewVerdict } from './review.js';
import type { SchedulingStore } from './schedule/types.js';
import type { WalletFloat, WalletReservation } from './wallet-float.js';

/**
 * A status change as the ledger decided it from the record it read: what `store.move()` writes.
 * Every instant it leaves out is the commit's own time (the store's clock).
 */
export interface RecordChange {
  status: TransactionStatus;
  statusReason: string | null;
  /** Absent: the record's provider stays. */
  provider?: string | null;
  /** Absent: the record's review verdict stays. */
  review?: ReviewVerdict | null;
  /** The upstream payload that proved the change; absent, the last one stays. */
  lastPayload?: unknown;
  /** A person's decision (a resolve); its `at` left out is the commit's time. */
  resolution?: Omit<Resolution, 'at'> & { at?: Date };
  /** When the platform acted: `attemptedAt` with `attempted`, `finalAt` with `final`. */
  at?: Date;
  /** The record's first answer: `attemptedAt` is set. */
  attempted: boolean;
  /** A final status: `finalAt` is set (else cleared). */
  final: boolean;
  /** The move makes the record's effect due, ends it (`done`), or leaves it as it is. */
  effect: 'due' | 'done' | 'kept';
}

/** One commit: references, a status change or both, while the record is as the ledger read it. */
export interface RecordMove {
  /** The status the ledger read: in another status now, the store writes nothing. */
  expected: TransactionStatus;
  /** Platform references to claim; a known field with another value, or a value another record owns → `ReferenceConflictError`, nothing written. */
  references?: References;
  change?: RecordChange;
  /** The lease's fencing token (`schedule.lease`): written only while it holds, else `LeaseLostError`. */
  leaseToken?: string;
}

/** The record after the commit; `applied: false` when it was no longer in the expected status. */
export interface MoveCommit {
  record: TransactionRecord;
  applied: boolean;
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

/** How the ledger's move to a status is told: checked before anything is decided. */
export interface TransitionDetails {
  /** The upstream payload that proved the change. */
  payload?: unknown;
  reason?: string;
  /** @default now */
  at?: Date;
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

/** The records: the write-ahead intent, the one way a record moves, and lookups. */
export interface TransactionRecords {
  /** Write-ahead: stored BEFORE the request is sent. A duplicate → `DuplicateReferenceError`. */
  create(intent: TransactionIntent): Promise<TransactionRecord>;
  /**
   * Commits what the ledger decided, as one transaction: the fence, then compare-and-set on
   * `expected`, then the references, the change, the effect it makes due and the end of a float
   * reservation — all or nothing. The store decides no rule of its own: pesakit's ledger
   * (`Ledger`, `resolveReview`) computes every change and is the way to move a record.
   */
  move(merchantReference: string, move: RecordMove): Promise<MoveCommit>;
  get(merchantReference: string): Promise<TransactionRecord | undefined>;
  /**
   * `get` for up to 1,000 merchant references in one read: the records in the order asked,
   * `undefined` where none is stored.
   */
  getMany(merchantReferences: readonly string[]): Promise<Array<TransactionRecord | undefined>>;
  /**
   * By one reference field, or, without `field`, by any: the merchant reference first, then the
   * platform's references in field order.
   */
  find(by: { field?: ReferenceField; value: string }): Promise<TransactionRecord | undefined>;
  /** Open records by default; never-checked first, then the oldest check, then the oldest created. */
  list(options?: ListOpenOptions): Promise<TransactionRecord[]>;
}

/**
 * What the dashboard, the review CLI and the metrics read. Optional in a store: `reportsOf(store)`
 * computes them from `records.list` when a store has none; the SQL stores count in SQL.
 */
export interface StoreReports {
  /** Counts by product and status, for operations (metrics, the dashboard). */
  summary(): Promise<StoreSummary>;
  /** Finals per hour over the window, and each operator's health over the last 24 hours. */
  operations(options?: OperationsReportOptions): Promise<OperationsReport>;
  /** The records a person must decide, by merchant reference. */
  review(options?: { limit?: number; after?: string }): Promise<TransactionRecord[]>;
}

/**
 * Every transaction pesakit starts, moved forward to a final state: an object of parts, each a
 * plain interface. Bad input → `StoreInputError`, nothing stored; an unknown merchant reference →
 * `TransactionNotFoundError`. What a store itself enforces: a move applies only while the record
 * is in the expected status and the lease's fence holds, inside one transaction.
 */
export interface ReferenceStore {
  readonly records: TransactionRecords;
  /** The reconciler's due times and fenced leases. */
  readonly schedule: SchedulingStore;
  /** The effect outbox: each final record's handler, run at least once. */
  readonly effects: EffectOutbox;
  readonly inbox: CallbackInbox;
  /** Each merchant account's wallet float, held against bulk payouts. */
  readonly wallets: WalletFloat;
  /** The platform's rate limit of each merchant account, shared by every process on the store. */
  readonly rateLimit: SharedRateLimit;
  /** Counted reports; absent, `reportsOf(store)` computes them from `records.list`. */
  readonly reports?: StoreReports;
  /** A closed store must not be used again. */
  close(): Promise<void>;
}
