import type { ColumnType } from 'kysely';
import type { TransactionsTable } from './table.js';

type Instant = ColumnType<Date | string, Date | string, Date | string>;

/**
 * `pesakit_transactions` with the reconciler's columns: when the record is next due, who holds
 * its lease until when, and the sequence number of its latest check-log entry (0: none yet).
 */
export interface ScheduledTransactionsTable extends TransactionsTable {
  next_check_at: Instant | null;
  lease_token: string | null;
  lease_expires_at: Instant | null;
  check_log_seq: number;
}

/**
 * What the checks of each record saw, one row per observation: appended by a release, never
 * rewritten; the oldest dropped past `maxObservations`.
 */
export interface CheckLogTable {
  merchant_reference: string;
  /** 1, 2, 3 … per record, in the order the checks were written. */
  seq: number;
  /** The observation as JSON text, exactly as the release gave it. */
  observation: string;
}

export const checkLogTable = 'pesakit_check_log';

export interface ScheduleDatabase {
  pesakit_transactions: ScheduledTransactionsTable;
  pesakit_check_log: CheckLogTable;
}
