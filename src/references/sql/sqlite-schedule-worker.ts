import type Database from 'better-sqlite3';
import type { ParsedLeaseDue, ParsedLeaseRelease } from '../schedule/input-rules.js';
import { type LeasedRecord, maxObservations } from '../schedule/types.js';
import {
  dueKey,
  dueSql,
  type LogEntry,
  leasedRecords,
  leaseParameters,
  referenceColumn,
  releaseRows,
  scheduleSql,
  usesInitiatingBefore,
} from './schedule-sqlite-rows.js';
import { checkpointerOf, type SqliteCheckpointer } from './sqlite-checkpointer.js';
import { scheduleThreadSource } from './sqlite-schedule-worker-source.js';
import {
  isSqliteThreadGoneError,
  SqliteThreadClient,
  SqliteThreadGoneError,
  type ThreadAnswer,
} from './sqlite-thread-client.js';
import { type SqliteThreadConnection, sqliteThreadConnection } from './sqlite-thread-connection.js';

/**
 * Rows the thread's connection changes between two pokes of the store file's checkpointer: a
 * release writes about two pages of WAL per record (the record, its check-log entry), so 400
 * rows is about SQLite's own cadence of 1,000 pages. Its own `wal_autocheckpoint` follows the
 * checkpointer's `pages()` (the backstop while it runs), as the inbox writer's does.
 */
const pokeChanges = 400;
const defaultPages = 1000;

/** `changes`: rows the thread's connection changed since its last answer. */
interface ScheduleAnswer extends ThreadAnswer {
  rows?: unknown[][];
  logs?: LogEntry[];
  released?: boolean[];
  changes?: number;
}

/**
 * The reconciler's SQLite lease pages and release batches on a worker thread with its own
 * connection to the store's file (issue #8): their SQLite work — 50–110 µs per record of the
 * event loop's CPU in reconciler-throughput.mjs — runs on the machine's other core, while the
 * main thread only posts the batch and builds the records from the rows it gets back. Each call
 * resolves after the transaction that did it committed, so what the store returns is on disk
 * exactly as before; the two connections take turns at the write lock through `busy_timeout`
 * (the store's own transactions begin IMMEDIATE, sqlite-immediate-dialect.ts, so neither can
 * find its snapshot stale half-way).
 *
 * The thread starts with the first lease or release (a store that never reconciles starts
 * none) and keeps the process alive only while a call is in flight. If it cannot start or
 * dies, every call waiting on it — and every later one — fails with a SqliteThreadGoneError,
 * and the store runs it on its own connection instead: a lease the dead thread committed but
 * never reported only holds its records until the lease expires; a release it committed is
 * fenced (its token is gone), so writing it again writes nothing.
 * `close()` waits for the calls in flight, then ends the thread.
 */
export class SqliteScheduleThread {
  readonly #connection: SqliteThreadConnection;
  readonly #checkpointer: SqliteCheckpointer | undefined;
  #unsubscribe: (() => void) | undefined;
  #thread: SqliteThreadClient<ScheduleAnswer> | undefined;
  #state: 'idle' | 'running' | 'gone' | 'closed' = 'idle';
  #changes = 0;

  /** Use {@link sqliteScheduleThread}, which decides whether a thread can share the file. */
  constructor(connection: SqliteThreadConnection, checkpointer?: SqliteCheckpointer) {
    this.#connection = connection;
    this.#checkpointer = checkpointer;
  }

  /** Whether calls still go to the thread (false once it has gone, or after close). */
  get usable(): boolean {
    return this.#state === 'idle' || this.#state === 'running';
  }

  /** A page of due records, leased as `SqliteScheduleWrites.leaseDue` would. */
  async leaseDue(options: ParsedLeaseDue, now: Date): Promise<LeasedRecord[]> {
    const { parameters, expires } = leaseParameters(options, now);
    const answer = await this.#call({
      lease: {
        key: dueKey(options),
        dueSql: dueSql(options.statuses, options.force, usesInitiatingBefore(options)),
        parameters,
        expires,
        observations: options.observations,
      },
    });
    return leasedRecords(answer.rows ?? [], answer.logs);
  }

  /** Ends the leases as `SqliteScheduleWrites.releaseLeases` would: one boolean per release. */
  async releaseLeases(releases: readonly ParsedLeaseRelease[], now: Date): Promise<boolean[]> {
    const at = now.toISOString();
    const answer = await this.#call({ release: { rows: releaseRows(releases, at), now: at } });
    return answer.released ?? [];
  }

  /** Waits for the calls in flight, then ends the thread (waiting for its exit). */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    const thread = this.#thread;
    this.#thread = undefined;
    await thread?.close();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  async #call(message: object): Promise<ScheduleAnswer> {
    const answer = await this.#started().call(message);
    // The checkpointer cannot see this connection's writes: they are counted here.
    this.#changes += answer.changes ?? 0;
    if (this.#changes >= pokeChanges) {
      this.#changes = 0;
      this.#checkpointer?.poke();
    }
    return answer;
  }

  #started(): SqliteThreadClient<ScheduleAnswer> {
    if (!this.usable) throw new SqliteThreadGoneError('The schedule thread is not running.');
    if (this.#thread) return this.#thread;
    let thread: SqliteThreadClient<ScheduleAnswer>;
    try {
      thread = new SqliteThreadClient<ScheduleAnswer>({
        name: 'schedule',
        source: scheduleThreadSource,
        workerData: {
          ...this.#connection,
          walAutocheckpoint: this.#checkpointer?.pages() ?? defaultPages,
          sql: scheduleSql,
          maxObservations,
          referenceColumn,
        },
        gone: () => this.#gone(),
      });
    } catch (error) {
      this.#state = 'gone';
      throw new SqliteThreadGoneError('The schedule thread could not start.', { cause: error });
    }
    this.#state = 'running';
    this.#unsubscribe = this.#checkpointer?.onPages((pages) =>
      thread.post({ walAutocheckpoint: pages }),
    );
    this.#thread = thread;
    return thread;
  }

  /** Nobody waiting was answered: each runs again on the store's connection (fenced, safe). */
  #gone(): void {
    if (this.#state === 'running') this.#state = 'gone';
    this.#thread = undefined;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}

/**
 * The schedule thread for a store pesakit opened on `database` by path, when another connection
 * can share the file (on disk, WAL, writable); otherwise `undefined` and the lease and release
 * run on the store's connection, as before.
 */
export function sqliteScheduleThread(
  database: Database.Database,
): SqliteScheduleThread | undefined {
  const connection = sqliteThreadConnection(database);
  return connection && new SqliteScheduleThread(connection, checkpointerOf(database));
}

/**
 * `call` on the schedule thread, or `undefined` when there is none or it has gone — then the
 * store runs the call on its own connection (see {@link SqliteScheduleThread}).
 */
export async function viaScheduleThread<T>(
  thread: SqliteScheduleThread | undefined,
  call: (thread: SqliteScheduleThread) => Promise<T>,
): Promise<T | undefined> {
  if (!thread?.usable) return undefined;
  try {
    return await call(thread);
  } catch (error) {
    if (isSqliteThreadGoneError(error)) return undefined;
    throw error;
  }
}
