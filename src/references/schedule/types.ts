import type { TransactionRecord, TransactionStatus } from '../types.js';

/** What {@link SchedulingStore.leaseDue} takes. */
export interface LeaseDueOptions {
  /** At most this many records (one keyset page). */
  limit: number;
  /** How long the lease holds; past it another worker may lease the record. */
  leaseMs: number;
  /** Ignore the schedule: every open record not yet checked in this pass is due. */
  force?: boolean;
  /**
   * The pass's start. A record is due when its next check is at or before this instant, and it
   * is skipped when it was already checked at or after it, so no pass sees a record twice.
   * @default now
   */
  passStartedAt?: Date;
  /** @default ['initiating', 'pending', 'unknown'] */
  statuses?: readonly TransactionStatus[];
  /**
   * Lease an `initiating` record only when it was written before this instant: a younger one
   * is most likely being sent right now, not crashed, and leasing it would only hand it back
   * unchecked — over and over, in a forced pass. @default every `initiating` record
   */
  initiatingBefore?: Date;
  /**
   * False: leave each record's check log unread (`LeasedRecord.observations` is then absent) —
   * it holds up to {@link maxObservations} full platform answers, and a check rarely needs
   * them; read them with {@link SchedulingStore.readObservations} when it does.
   * @default true
   */
  observations?: boolean;
}

/** A record leased to one worker: only the holder of `token` may settle it. */
export interface LeasedRecord {
  record: TransactionRecord;
  /** The fencing token: pass it to `transition(..., { leaseToken })` and `releaseLease`. */
  token: string;
  /** When the record was due (null: never scheduled, i.e. due since it was written). */
  nextCheckAt: Date | null;
  /**
   * What earlier checks saw (the pulled answers, oldest first, the last
   * {@link maxObservations}): the evidence a person gets when the reconciler gives up. Absent
   * when leased with `observations: false`.
   */
  observations?: unknown[];
}

/** How many pulled answers a record keeps as evidence. */
export const maxObservations = 20;

/** What {@link SchedulingStore.releaseLease} takes. */
export interface ReleaseLeaseOptions {
  /** When the record is next due. */
  nextCheckAt: Date;
  /** When the check happened (sets `lastCheckedAt`, counts it). @default now */
  checkedAt?: Date;
  /** What this check saw (JSON-able), appended to the record's observations. */
  observation?: unknown;
  /**
   * False when the record was only rescheduled (nothing was asked of the platform): the check
   * is not counted and `lastCheckedAt` stays. @default true
   */
  counted?: boolean;
}

/** One lease to end in {@link SchedulingStore.releaseLeases}: which record, whose lease, how. */
export interface LeaseRelease extends ReleaseLeaseOptions {
  merchantReference: string;
  /** The fencing token the lease was taken with. */
  token: string;
}

/**
 * The reconciler's side of the store: the next due time kept on each record (indexed), and
 * leases with fencing tokens so many workers share the work without pulling a record twice.
 * PostgreSQL leases with `FOR UPDATE SKIP LOCKED`; SQLite and memory serve one process with
 * the same interface.
 */
export interface SchedulingStore {
  /**
   * Leases up to `limit` open records that are due (or, with `force`, not yet checked in this
   * pass) and not leased by anyone else (an expired lease counts as free). Oldest due first.
   */
  leaseDue(options: LeaseDueOptions): Promise<LeasedRecord[]>;
  /**
   * Ends the lease held with `token`: records the check and the next due time. False (and
   * nothing written) when the lease was lost — it expired and another worker took it.
   */
  releaseLease(
    merchantReference: string,
    token: string,
    options: ReleaseLeaseOptions,
  ): Promise<boolean>;
  /**
   * Ends many leases at once, exactly as {@link releaseLease} would one by one, in one
   * transaction (one commit for the lot: the reconciler's checks write through this). Resolves
   * with one boolean per release, in order: false where that lease was lost (nothing written
   * for it). Invalid input (a field breaking a rule, a merchant reference named twice) rejects
   * the whole call and changes nothing.
   */
  releaseLeases(releases: readonly LeaseRelease[]): Promise<boolean[]>;
  /**
   * What earlier checks of the record saw, oldest first (the last {@link maxObservations}
   * observations given to `releaseLease`/`releaseLeases`); `[]` when none. Throws
   * `TransactionNotFoundError` for a record the store does not hold.
   */
  readObservations(merchantReference: string): Promise<unknown[]>;
}
