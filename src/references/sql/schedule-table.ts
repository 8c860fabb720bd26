import type { ColumnType } from 'kysely';
import type { TransactionsTable } from './table.js';

type Instant = ColumnType<Date | string, Date | string, Date | string>;

/**
 * `pesakit_transactions` with the reconciler's columns (migration `0004_reconciler_schedule`):
 * when the record is next due, and who holds its lease until when.
 */
export interface ScheduledTransactionsTable extends TransactionsTable {
  next_check_at: Instant | null;
  lease_token: string | null;
  lease_expires_at: Instant | null;
  /**
   * Until migration `0005_reconciler_check_log`: a JSON array of what the last checks saw. Since
   * then always NULL (0005 moved every log into `pesakit_check_log`); kept so that an older
   * pesakit reading the same file finds the column it expects.
   */
  check_log: string | null;
  /**
   * The sequence number of the record's latest entry in `pesakit_check_log` (0: none yet).
   * Migration `0005_reconciler_check_log`.
   */
  check_log_seq: number;
}

/**
 * What the checks of each record saw, one row per observation (migration
 * `0005_reconciler_check_log`): appended by a release, never rewritten; the oldest dropped past
 * `maxObservations`. Out of the record's row so that a check does not rewrite up to 20 full
 * platform answers with it (see docs/reconciler.md § Schema).
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
