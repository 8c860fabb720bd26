import type { TransactionStatus } from '../../schemas/transaction-status.js';
import type { TransactionRecord } from '../record.js';

export interface LeaseDueOptions {
  limit: number;
  leaseMs: number;
  /** Ignore the schedule: every open record not yet checked in this pass is due. */
  force?: boolean;
  /** Due: next check at or before it; skipped: checked at or after it (no record twice a pass). */
  passStartedAt?: Date;
  /** Open statuses only. @default ['initiating', 'pending', 'unknown'] */
  statuses?: readonly TransactionStatus[];
  /** Only `initiating` records written before this: a younger one is most likely being sent. */
  initiatingBefore?: Date;
  /** False: leave the check log unread (`observations` absent). @default true */
  observations?: boolean;
}

/** Only the holder of `token` (the fencing token) may settle the record. */
export interface LeasedRecord {
  record: TransactionRecord;
  token: string;
  /** Null: never scheduled. */
  nextCheckAt: Date | null;
  /** What earlier checks saw, oldest first (see `schedule.observations`). */
  observations?: unknown[];
}

/** How many pulled answers a record keeps as evidence. */
export const maxObservations = 20;

export interface ReleaseLeaseOptions {
  nextCheckAt: Date;
  /** @default now */
  checkedAt?: Date;
  /** JSON-able; appended to the record's observations. */
  observation?: unknown;
  /** False: only rescheduled, the check is not counted. @default true */
  counted?: boolean;
}

export interface LeaseRelease extends ReleaseLeaseOptions {
  merchantReference: string;
  token: string;
}

/** The reconciler's schedule: due times and fenced leases, so no record is pulled twice. */
export interface SchedulingStore {
  /** Up to `limit` due, unleased (or expired) open records, oldest due first. */
  lease(options: LeaseDueOptions): Promise<LeasedRecord[]>;
  /** Records the check and the next due time; false (nothing written) when the lease was lost. */
  release(merchantReference: string, token: string, options: ReleaseLeaseOptions): Promise<boolean>;
  /** The last {@link maxObservations} observations released, oldest first: a person's evidence. */
  observations(merchantReference: string): Promise<unknown[]>;
}
