import type Database from 'better-sqlite3';
import type { ParsedLeaseDue, ParsedLeaseRelease } from '../schedule/input-rules.js';
import { type LeasedRecord, maxObservations } from '../schedule/types.js';
import type { TransactionStatus } from '../types.js';
import { leasedColumns } from './schedule.js';
import { checkLogTable } from './schedule-table.js';
import { type TransactionRow, toRecord, transactionsTable } from './table.js';

/**
 * The reconciler's batched release on SQLite as statements prepared once and run
 * synchronously on better-sqlite3, one IMMEDIATE transaction per batch: per release one fenced
 * UPDATE by primary key and, with an observation, one INSERT into the check log. Through Kysely
 * the batch went as one JSON parameter that SQLite took apart twice (once for the log, once for
 * the records), field by field: that parsing, not the writes, was most of a release's cost
 * (docs/benchmarks.md, reconciler-throughput, stop 15). The writes are exactly those of
 * `releaseLeaseRows` (schedule.ts), which PostgreSQL, and SQLite inside a transaction someone
 * else opened, still use.
 */
export class SqliteScheduleWrites {
  readonly #database: Database.Database;
  #statements: Statements | undefined;
  #release: ((releases: readonly ParsedLeaseRelease[], now: string) => boolean[]) | undefined;
  readonly #due = new Map<string, Database.Statement>();

  constructor(database: Database.Database) {
    this.#database = database;
  }

  /**
   * Ends the leases, as `releaseLeaseRows` would; one boolean per release (false: the lease was
   * lost, nothing written for it). Undefined when the connection is inside a transaction
   * someone else opened (a Kysely transaction awaiting between statements): run now, these
   * writes would join it and share its fate, so the caller takes the Kysely path, which waits
   * its turn.
   */
  releaseLeases(releases: readonly ParsedLeaseRelease[], now: Date): boolean[] | undefined {
    if (this.#database.inTransaction) return undefined;
    this.#release ??= (() => {
      const statements = this.#prepared();
      const write = this.#database.transaction(
        (batch: readonly ParsedLeaseRelease[], nowText: string) =>
          batch.map((release) => releaseOne(statements, release, nowText)),
      );
      return (batch, nowText) => write.immediate(batch, nowText);
    })();
    return this.#release(releases, now.toISOString());
  }

  /**
   * Leases a page of due records, as `leaseDueRows` would (the same rows, the same order, a
   * token per record), in one IMMEDIATE transaction: the due page's references, then one
   * UPDATE of those rows, then one SELECT of them. Not `UPDATE … RETURNING`: SQLite hands
   * RETURNING rows back through a temporary table, which cost three times the update itself.
   * Undefined inside a transaction someone else opened (see {@link releaseLeases}).
   */
  leaseDue(options: ParsedLeaseDue, now: Date): LeasedRecord[] | undefined {
    if (this.#database.inTransaction) return undefined;
    const due = this.#dueStatement(options);
    const statements = this.#prepared();
    const passStartedAt = (options.passStartedAt ?? now).toISOString();
    const parameters: Record<string, string | number> = {
      passStartedAt,
      now: now.toISOString(),
      limit: options.limit,
    };
    if (options.initiatingBefore !== undefined && options.statuses.includes('initiating')) {
      parameters['initiatingBefore'] = options.initiatingBefore.toISOString();
    }
    const expires = new Date(now.getTime() + options.leaseMs).toISOString();
    const lease = this.#database.transaction(() => {
      const references = due.all(parameters) as string[];
      if (references.length === 0) return [];
      const list = JSON.stringify(references);
      statements.lease.run(expires, list);
      return (statements.leased.all(list) as unknown[][]).map(rowObject);
    });
    const rows = lease.immediate();
    const logs = options.observations ? this.#readLogs(rows) : undefined;
    return rows
      .map((row): LeasedRecord => {
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

  #readLogs(rows: readonly TransactionRow[]): Map<string, unknown[]> {
    const logs = new Map<string, unknown[]>();
    const entries = this.#prepared().logs.all(
      JSON.stringify(rows.map((row) => row.merchant_reference)),
    ) as { merchant_reference: string; observation: string }[];
    for (const entry of entries) {
      const observation: unknown = JSON.parse(entry.observation);
      const log = logs.get(entry.merchant_reference);
      if (log) log.push(observation);
      else logs.set(entry.merchant_reference, [observation]);
    }
    return logs;
  }

  /** The due page's references, one statement per shape of the query (a handful). */
  #dueStatement(options: ParsedLeaseDue): Database.Statement {
    const initiatingBefore =
      options.initiatingBefore !== undefined && options.statuses.includes('initiating');
    const key = `${options.statuses.join(',')}|${options.force}|${initiatingBefore}`;
    let statement = this.#due.get(key);
    if (!statement) {
      statement = this.#database.prepare(dueSql(options.statuses, options.force, initiatingBefore));
      statement.pluck(true);
      this.#due.set(key, statement);
    }
    return statement;
  }

  #prepared(): Statements {
    this.#statements ??= {
      release: this.#database.prepare(
        `update ${transactionsTable} set lease_token = null, lease_expires_at = null,
           next_check_at = ?,
           last_checked_at = case when ? = 1 then ? else last_checked_at end,
           check_count = check_count + ?,
           updated_at = case when ? = 1 then ? else updated_at end,
           check_log_seq = check_log_seq + ?
         where merchant_reference = ? and lease_token = ?
         returning check_log_seq`,
      ),
      append: this.#database.prepare(
        `insert into ${checkLogTable} (merchant_reference, seq, observation) values (?, ?, ?)`,
      ),
      trim: this.#database.prepare(
        `delete from ${checkLogTable} where merchant_reference = ? and seq <= ?`,
      ),
      lease: this.#database.prepare(
        `update ${transactionsTable} set lease_token = lower(hex(randomblob(16))),
           lease_expires_at = ?
         where merchant_reference in (select value from json_each(?))`,
      ),
      // Rows as arrays (better-sqlite3's raw mode), named in JavaScript: half the cost of
      // letting the driver build an object of 31 properties per row.
      leased: this.#database
        .prepare(
          `select ${leasedColumns.join(', ')} from ${transactionsTable}
           where merchant_reference in (select value from json_each(?))`,
        )
        .raw(true),
      logs: this.#database.prepare(
        `select merchant_reference, observation from ${checkLogTable}
         where merchant_reference in (select value from json_each(?))
         order by merchant_reference, seq`,
      ),
    };
    return this.#statements;
  }
}

interface Statements {
  release: Database.Statement;
  append: Database.Statement;
  trim: Database.Statement;
  lease: Database.Statement;
  leased: Database.Statement;
  logs: Database.Statement;
}

/**
 * The due query of `leaseDueRows` in SQL: one ordered index range per status (the
 * `pesakit_transactions_due_idx` order), merged. Statuses are the store's own names (checked by
 * parseLeaseDue), so they are written into the text.
 */
function dueSql(
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

/** A leased row from its values in {@link leasedColumns} order. */
function rowObject(values: unknown[]): TransactionRow {
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

function releaseOne(statements: Statements, release: ParsedLeaseRelease, now: string): boolean {
  const counted = release.counted ? 1 : 0;
  const observed = release.observationJson === undefined ? 0 : 1;
  const row = statements.release.get(
    release.nextCheckAt.toISOString(),
    counted,
    release.checkedAt?.toISOString() ?? now,
    counted,
    counted,
    now,
    observed,
    release.merchantReference,
    release.token,
  ) as { check_log_seq: number } | undefined;
  if (!row) return false;
  if (release.observationJson !== undefined) {
    const seq = Number(row.check_log_seq);
    statements.append.run(release.merchantReference, seq, release.observationJson);
    // Past maxObservations entries the oldest go (a record checked 20 times: rare).
    if (seq > maxObservations) {
      statements.trim.run(release.merchantReference, seq - maxObservations);
    }
  }
  return true;
}
