import type { Product } from '../core/endpoints.js';
import type { EffectOutbox, EffectState } from './effects.js';
import type { CallbackInbox } from './inbox/types.js';
import type { Resolution, ReviewQueue, ReviewVerdict } from './review.js';
import type { SchedulingStore } from './schedule/types.js';

/**
 * Where a transaction stands, as far as the merchant knows.
 *
 * - `initiating` — the intent is stored; the request is about to be (or is being) sent.
 * - `pending` — the platform accepted it; the outcome is not known yet.
 * - `unknown` — the request may have reached the platform but no answer came back. Only the
 *   reconciler resolves it; it is never treated as failed (DESIGN.md decision 3).
 * - `needs_review` — automation saw something only a person can decide (a success for another
 *   amount, a claim the platform does not confirm, an ambiguous match); `review` says what.
 *   Only `store.resolve()` leaves it.
 * - `success`, `failed` — final; they never change.
 */
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

/**
 * The platform's references for one transaction, kept apart (spec general rule 9):
 * `controlNumber` (portal MNO/bank flows, airtime recharge), `paymentReference` (the engine's
 * `reference`), `externalReference` (secure checkout), `txnid` and `refid` (disbursement).
 */
export interface References {
  controlNumber?: string;
  paymentReference?: string;
  externalReference?: string;
  txnid?: string;
  refid?: string;
}

/** The platform's reference kinds, in the order they are listed everywhere. */
export type PlatformReferenceField = keyof References;

/** Every kind of reference a record can be found by: the merchant's own and the platform's. */
export type ReferenceField = 'merchantReference' | PlatformReferenceField;

/** One transaction as the store remembers it. Records returned by a store are copies. */
export interface TransactionRecord {
  merchantReference: string;
  product: Product;
  flow: Flow;
  /** TZS, at most two decimals; stored exactly (whole cents). */
  amount: number;
  msisdn: string | null;
  status: TransactionStatus;
  /** Why the last transition happened (an upstream message, an error), when known. */
  statusReason: string | null;
  controlNumber: string | null;
  paymentReference: string | null;
  externalReference: string | null;
  txnid: string | null;
  refid: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When the request left `initiating`, i.e. when its outcome (or its absence) became known. */
  attemptedAt: Date | null;
  /** When the reconciler last pulled this transaction's state. */
  lastCheckedAt: Date | null;
  checkCount: number;
  /** The last upstream payload recorded with a transition, as JSON. */
  lastPayload: unknown;
  /** The merchant's own small key/values (order id, customer id, ...). */
  metadata: Record<string, string>;
  /** Why the record went to `needs_review` (kept after it is resolved); null otherwise. */
  review: ReviewVerdict | null;
  /** How a person resolved it (`store.resolve`); null otherwise. */
  resolution: Resolution | null;
  /** The merchant handler's run for the final transition (see `EffectState`). */
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
}

/** What accompanies a status change. */
export interface TransitionDetails {
  /** The upstream payload that proved the change (a status answer, a callback body). */
  payload?: unknown;
  /** A short human reason (an upstream message, an error's message). */
  reason?: string;
  /** When it happened; defaults to now. */
  at?: Date;
  /**
   * The reconciler's fencing token (from `leaseDue`): the change is written only while this
   * lease is the record's current one, else `LeaseLostError` and nothing is written.
   */
  leaseToken?: string;
  /** Required when moving to `needs_review`: why, for the person who decides. */
  review?: ReviewVerdict;
}

/** Filters for {@link ReferenceStore.listOpen}. */
export interface ListOpenOptions {
  /** @default ['initiating', 'pending', 'unknown'] */
  statuses?: readonly TransactionStatus[];
  product?: Product;
  /** Only records never checked, or last checked before this instant. */
  checkedBefore?: Date;
  /** @default 100 */
  limit?: number;
}

/**
 * The records themselves: the write-ahead intent, the platform's references, status moves and
 * the lookups every path uses. One part of {@link ReferenceStore}.
 */
export interface TransactionRecords {
  /**
   * Write-ahead: stores the intent as `initiating` BEFORE the request is sent, so a crash
   * in between leaves a trace for the reconciler. A merchant reference already stored →
   * `DuplicateReferenceError`.
   */
  createIntent(intent: TransactionIntent): Promise<TransactionRecord>;
  /**
   * Attaches the platform's references. The same value again is a no-op; a different value for
   * a field already known, or a value that another record owns (under any reference kind) →
   * `ReferenceConflictError`, and none of `refs` is attached.
   */
  attachReferences(merchantReference: string, refs: References): Promise<TransactionRecord>;
  /**
   * Moves the status forward along the allowed transitions (see `allowedTransitions`). Moving
   * to the current status is a no-op (`changed: false`, nothing written); any other move not in
   * the table → `InvalidTransitionError`. Records the payload and reason with the change.
   */
  transition(
    merchantReference: string,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }>;
  /**
   * `attachReferences` then `transition`, as one write: a money-moving call records the
   * platform's answer (its references, then what it says about the payment) with it, one
   * commit instead of two. Bad input (either part) → `StoreInputError` and nothing written; a
   * reference conflict → `ReferenceConflictError` and nothing written; a lost lease →
   * `LeaseLostError` and nothing written. A move the status table refuses →
   * `InvalidTransitionError` with the references attached, as the two calls in turn would
   * leave them (the record settled meanwhile, by a callback say).
   */
  attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: TransitionDetails,
  ): Promise<{ record: TransactionRecord; changed: boolean }>;
  /** The record stored under the merchant's reference, if any. */
  get(merchantReference: string): Promise<TransactionRecord | undefined>;
  /**
   * Finds a record by any reference kind: the merchant reference first, then `controlNumber`,
   * `paymentReference`, `externalReference`, `txnid` and `refid`.
   */
  findByReference(reference: string): Promise<TransactionRecord | undefined>;
  /** Finds a record by one named reference kind. */
  find(by: { field: ReferenceField; value: string }): Promise<TransactionRecord | undefined>;
  /**
   * For the reconciler: records in the given statuses, never-checked first, then the oldest
   * check first (ties: oldest created first).
   */
  listOpen(options?: ListOpenOptions): Promise<TransactionRecord[]>;
  /** Notes that the reconciler pulled this transaction's state: sets `lastCheckedAt`, counts it. */
  recordCheck(merchantReference: string, at?: Date): Promise<TransactionRecord>;
}

/**
 * Remembers every transaction pesakit starts, with each reference kept apart, and moves it
 * forward to a final state. It is made of parts, each its own interface, so code can ask for
 * only what it uses: {@link TransactionRecords}, {@link ReviewQueue} (`needs_review`),
 * {@link EffectOutbox} (the merchant's handlers), {@link SchedulingStore} (the reconciler's
 * leases) and the {@link CallbackInbox}. A custom store implements them all. Three implementations share one conformance suite:
 * `MemoryReferenceStore` (default), `SqliteReferenceStore` (`pesakit/sqlite`) and
 * `PostgresReferenceStore` (`pesakit/postgres`).
 *
 * Bad input throws `StoreInputError` and stores nothing; an unknown merchant reference throws
 * `TransactionNotFoundError` (except in the lookups, which return `undefined`).
 */
export interface ReferenceStore
  extends TransactionRecords,
    ReviewQueue,
    EffectOutbox,
    SchedulingStore {
  /** The durable callback inbox kept with the records (src/references/inbox). */
  readonly inbox: CallbackInbox;
  /** Releases the store's connections. A closed store must not be used again. */
  close(): Promise<void>;
}
