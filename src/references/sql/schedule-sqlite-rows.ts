import type { ParsedLeaseDue, ParsedLeaseRelease } from '../schedule/input-rules.js';
import type { LeasedRecord } from '../schedule/types.js';
import type { TransactionStatus } from '../types.js';
import { leasedColumns } from './schedule.js';
import { checkLogTable } from './schedule-table.js';
import { type TransactionRow, toRecord, transactionsTable } from './table.js';

/**
 * The SQL and the row shapes of SQLite's lease and release by hand, shared by the two places
 * that run them: the store's own connection (schedule-sqlite.ts) and the schedule thread's
 * (sqlite-schedule-worker-source.ts). The statements are the same text in both; the records are
 * built from the rows here, on the main thread, in both.
 */
export const scheduleSql = {
  release: `update ${transactionsTable} set lease_token = null, lease_expires_at = null,
     next_check_at = ?,
     last_checked_at = case when ? = 1 then ? else last_checked_at end,
     check_count = check_count + ?,
     updated_at = case when ? = 1 then ? else updated_at end,
     check_log_seq = check_log_seq + ?
   where merchant_reference = ? and lease_token = ?
   returning check_log_seq`,
  append: `insert into ${checkLogTable} (merchant_reference, seq, observation) values (?, ?, ?)`,
  trim: `delete from ${checkLogTable} where merchant_reference = ? and seq <= ?`,
  lease: `update ${transactionsTable} set lease_token = lower(hex(randomblob(16))),
     lease_expires_at = ?
   where merchant_reference in (select value from json_each(?))`,
  /** Run in raw mode: one array of values per row, in {@link leasedColumns} order. */
  leased: `select ${leasedColumns.join(', ')} from ${transactionsTable}
   where merchant_reference in (select value from json_each(?))`,
  /** Run in raw mode: `[merchant_reference, observation]`, each log oldest first. */
  logs: `select merchant_reference, observation from ${checkLogTable}
   where merchant_reference in (select value from json_each(?))
   order by merchant_reference, seq`,
};

/** One check-log entry as read: `[merchant_reference, observation as JSON text]`. */
export type LogEntry = [string, string];

/** Where the merchant reference is in a leased row's values. */
export const referenceColumn = leasedColumns.indexOf('merchant_reference');

export function usesInitiatingBefore(options: ParsedLeaseDue): boolean {
  return options.initiatingBefore !== undefined && options.statuses.includes('initiating');
}

/** One key per shape of the due query (a handful): its prepared statement is kept by it. */
export function dueKey(options: ParsedLeaseDue): string {
  return `${options.statuses.join(',')}|${options.force}|${usesInitiatingBefore(options)}`;
}

/** The due query's named parameters, and the lease's end, for a lease at `now`. */
export function leaseParameters(
  options: ParsedLeaseDue,
  now: Date,
): { parameters: Record<string, string | number>; expires: string } {
  const parameters: Record<string, string | number> = {
    passStartedAt: (options.passStartedAt ?? now).toISOString(),
    now: now.toISOString(),
    limit: options.limit,
  };
  if (usesInitiatingBefore(options)) {
    parameters['initiatingBefore'] = (options.initiatingBefore as Date).toISOString();
  }
  return { parameters, expires: new Date(now.getTime() + options.leaseMs).toISOString() };
}

/**
 * The due query of `leaseDueRows` in SQL: one ordered index range per status (the
 * `pesakit_transactions_due_idx` order), merged. Statuses are the store's own names (checked by
 * parseLeaseDue), so they are written into the text.
 */
export function dueSql(
  statuses: readonly TransactionStatus[],
  force: boolean,
  initiatingBefore: boolean,
): string {
  const order = 'order by next_check_at asc nulls first, merchant_reference asc limit @limit';
  const dueIn = (status: TransactionStatus) => {
    if (!/^[a-z_]+$/.test(status)) throw new Error(`Not a transaction status: ${status}`);
    const conditions = [
      `status = '${status}'`,
      '(last_checked_at is null or last_checked_at < @passStartedAt)',
      '(lease_token is null or lease_expires_at <= @now)',
      ...(status === 'initiating' && initiatingBefore ? ['created_at < @initiatingBefore'] : []),
      ...(force ? [] : ['(next_check_at is null or next_check_at <= @passStartedAt)']),
    ];
    return `select merchant_reference, next_check_at from ${transactionsTable} where ${conditions.join(' and ')} ${order}`;
  };
  if (statuses.length === 1) {
    return `select merchant_reference from (${dueIn(statuses[0] as TransactionStatus)})`;
  }
  const union = statuses.map((status) => `select * from (${dueIn(status)})`).join(' union all ');
  return `select merchant_reference from (${union}) ${order}`;
}

/**
 * The leased records from the lease's raw rows (and, when asked for, its check-log entries):
 * never-scheduled first, then the earliest due, as `leaseDueRows` returns them.
 */
export function leasedRecords(
  rows: readonly unknown[][],
  logEntries?: readonly LogEntry[],
): LeasedRecord[] {
  const logs = logEntries ? logsByReference(logEntries) : undefined;
  return rows
    .map((values): LeasedRecord => {
      const row = rowObject(values);
      const leased: LeasedRecord = {
        record: toRecord(row),
        token: (row as unknown as { lease_token: string }).lease_token,
        nextCheckAt: fromInstant(
          (row as unknown as { next_check_at: string | null }).next_check_at,
        ),
      };
      if (logs) leased.observations = logs.get(row.merchant_reference) ?? [];
      return leased;
    })
    .sort(byDueTime);
}

function logsByReference(entries: readonly LogEntry[]): Map<string, unknown[]> {
  const logs = new Map<string, unknown[]>();
  for (const [reference, text] of entries) {
    const observation: unknown = JSON.parse(text);
    const log = logs.get(reference);
    if (log) log.push(observation);
    else logs.set(reference, [observation]);
  }
  return logs;
}

/** A leased row from its values in {@link leasedColumns} order. */
function rowObject(values: readonly unknown[]): TransactionRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < leasedColumns.length; i += 1) {
    row[leasedColumns[i] as string] = values[i];
  }
  return row as unknown as TransactionRow;
}

function fromInstant(value: string | null): Date | null {
  return value === null ? null : new Date(value);
}

/** Never-scheduled first, then the earliest due; the merchant reference breaks ties. */
function byDueTime(a: LeasedRecord, b: LeasedRecord): number {
  const x = a.nextCheckAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const y = b.nextCheckAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (x !== y) return x < y ? -1 : 1;
  const p = a.record.merchantReference;
  const q = b.record.merchantReference;
  return p < q ? -1 : p > q ? 1 : 0;
}

/**
 * One release as it crosses to the schedule thread: `[merchantReference, token, nextCheckAt,
 * counted (0/1), checkedAt, observation as JSON text or null]`, instants as ISO-8601 text.
 */
export type ReleaseRow = [string, string, string, 0 | 1, string, string | null];

export function releaseRows(releases: readonly ParsedLeaseRelease[], now: string): ReleaseRow[] {
  return releases.map((release) => [
    release.merchantReference,
    release.token,
    release.nextCheckAt.toISOString(),
    release.counted ? 1 : 0,
    release.checkedAt?.toISOString() ?? now,
    release.observationJson ?? null,
  ]);
}
