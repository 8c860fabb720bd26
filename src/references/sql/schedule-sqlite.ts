import type Database from 'better-sqlite3';
import type { ParsedLeaseRelease } from '../schedule/input-rules.js';
import { maxObservations } from '../schedule/types.js';
import { checkLogTable } from './schedule-table.js';
import { transactionsTable } from './table.js';

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
    };
    return this.#statements;
  }
}

interface Statements {
  release: Database.Statement;
  append: Database.Statement;
  trim: Database.Statement;
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
