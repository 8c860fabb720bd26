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
  /** JSON array of what the last checks saw (evidence for a person); NULL when none. */
  check_log: string | null;
}

export interface ScheduleDatabase {
  pesakit_transactions: ScheduledTransactionsTable;
}
