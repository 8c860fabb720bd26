import type Database from 'better-sqlite3';
import type { ParsedLeaseDue, ParsedLeaseRelease } from '../schedule/input-rules.js';
import { type LeasedRecord, maxObservations } from '../schedule/types.js';
import { fileBusyElsewhere } from '../sqlite-open-files.js';
import {
  dueKey,
  dueSql,
  type LogEntry,
  leasedRecords,
  leaseParameters,
  referenceColumn,
  scheduleSql,
  usesInitiatingBefore,
} from './schedule-sqlite-rows.js';

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
    if (this.#database.inTransaction || fileBusyElsewhere(this.#database)) return undefined;
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
    if (this.#database.inTransaction || fileBusyElsewhere(this.#database)) return undefined;
    const due = this.#dueStatement(options);
    const statements = this.#prepared();
    const { parameters, expires } = leaseParameters(options, now);
    const lease = this.#database.transaction(() => {
      const references = due.all(parameters) as string[];
      if (references.length === 0) return [];
      const list = JSON.stringify(references);
      statements.lease.run(expires, list);
      return statements.leased.all(list) as unknown[][];
    });
    const rows = lease.immediate();
    const logs = options.observations
      ? (statements.logs.all(JSON.stringify(rows.map((row) => row[referenceColumn]))) as LogEntry[])
      : undefined;
    return leasedRecords(rows, logs);
  }

  /** The due page's references, one statement per shape of the query (a handful). */
  #dueStatement(options: ParsedLeaseDue): Database.Statement {
    const initiatingBefore = usesInitiatingBefore(options);
    const key = dueKey(options);
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
      release: this.#database.prepare(scheduleSql.release),
      append: this.#database.prepare(scheduleSql.append),
      trim: this.#database.prepare(scheduleSql.trim),
      lease: this.#database.prepare(scheduleSql.lease),
      // Rows as arrays (better-sqlite3's raw mode), named in JavaScript: half the cost of
      // letting the driver build an object of 31 properties per row.
      leased: this.#database.prepare(scheduleSql.leased).raw(true),
      logs: this.#database.prepare(scheduleSql.logs).raw(true),
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
