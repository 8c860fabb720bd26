import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { ParsedLeaseDue, ParsedLeaseRelease } from '../schedule/input-rules.js';
import { type LeasedRecord, maxObservations } from '../schedule/types.js';
import { betterSqlitePath } from './better-sqlite-path.js';
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
import { sharedWalFile } from './shared-wal-file.js';
import { checkpointerOf, type SqliteCheckpointer } from './sqlite-checkpointer.js';
import { scheduleThreadSource } from './sqlite-schedule-worker-source.js';

/**
 * Rows the thread's connection changes between two pokes of the store file's checkpointer: a
 * release writes about two pages of WAL per record (the record, its check-log entry), so 400
 * rows is about SQLite's own cadence of 1,000 pages. Its own `wal_autocheckpoint` follows the
 * checkpointer's `pages()` (the backstop while it runs), as the inbox writer's does.
 */
const pokeChanges = 400;
const defaultPages = 1000;

interface ThreadAnswer {
  id: number;
  rows?: unknown[][];
  logs?: LogEntry[];
  released?: boolean[];
  changes?: number;
  error?: { name: string; message: string; code?: string };
}

interface Pending {
  resolve(answer: ThreadAnswer): void;
  reject(error: unknown): void;
}

/** The thread could not start or has gone: the caller runs the call on the store's connection. */
export class ScheduleThreadGoneError extends Error {
  override name = 'ScheduleThreadGoneError';
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
 * dies, every call waiting on it — and every later one — fails with
 * {@link ScheduleThreadGoneError}, and the store runs it on its own connection instead: a lease
 * the dead thread committed but never reported only holds its records until the lease expires;
 * a release it committed is fenced (its token is gone), so writing it again writes nothing.
 * `close()` waits for the calls in flight, then ends the thread.
 */
export class SqliteScheduleThread {
  readonly #driver: string;
  readonly #file: string;
  readonly #busyTimeoutMs: number;
  readonly #synchronous: number;
  readonly #checkpointer: SqliteCheckpointer | undefined;
  #unsubscribe: (() => void) | undefined;
  #thread: Worker | undefined;
  #state: 'idle' | 'running' | 'gone' | 'closed' = 'idle';
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();
  #drained: (() => void) | undefined;
  #changes = 0;

  /** Use {@link sqliteScheduleThread}, which decides whether a thread can share the file. */
  constructor(
    driver: string,
    file: string,
    busyTimeoutMs: number,
    synchronous: number,
    checkpointer?: SqliteCheckpointer,
  ) {
    this.#driver = driver;
    this.#file = file;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#synchronous = synchronous;
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
    const wasRunning = this.#state === 'running';
    this.#state = 'closed';
    if (this.#pending.size > 0) {
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
      });
    }
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    const thread = this.#thread;
    this.#thread = undefined;
    if (!wasRunning || !thread) return;
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    // Referenced until it has gone: an idle thread is unref'd, and a program whose last work is
    // `await store.close()` would otherwise end with this promise unsettled (exit code 13).
    thread.ref();
    thread.postMessage({ close: true });
    await exited;
  }

  #call(message: object): Promise<ThreadAnswer> {
    return new Promise((resolve, reject) => {
      if (!this.usable) {
        reject(new ScheduleThreadGoneError('The schedule thread is not running.'));
        return;
      }
      const thread = this.#started();
      if (!thread) {
        reject(new ScheduleThreadGoneError('The schedule thread could not start.'));
        return;
      }
      const id = this.#nextId++;
      this.#pending.set(id, {
        resolve: (answer) => {
          if (answer.error) reject(toError(answer.error));
          else resolve(answer);
        },
        reject,
      });
      if (this.#pending.size === 1) thread.ref();
      thread.postMessage({ id, ...message });
    });
  }

  #started(): Worker | undefined {
    if (this.#thread) return this.#thread;
    let thread: Worker;
    try {
      thread = new Worker(scheduleThreadSource, {
        eval: true,
        workerData: {
          driver: this.#driver,
          file: this.#file,
          busyTimeoutMs: this.#busyTimeoutMs,
          synchronous: this.#synchronous,
          walAutocheckpoint: this.#checkpointer?.pages() ?? defaultPages,
          sql: scheduleSql,
          maxObservations,
          referenceColumn,
        },
      });
    } catch {
      this.#state = 'gone';
      return undefined;
    }
    // Never what keeps a process alive while idle: referenced only while a call is in flight.
    thread.unref();
    this.#state = 'running';
    this.#unsubscribe = this.#checkpointer?.onPages((pages) =>
      thread.postMessage({ walAutocheckpoint: pages }),
    );
    thread.on('message', (answer: ThreadAnswer) => this.#answered(thread, answer));
    const gone = (error: Error) => {
      // Nobody waiting was answered: each runs again on the store's connection (fenced, safe).
      if (this.#thread === thread) this.#thread = undefined;
      if (this.#state === 'running') this.#state = 'gone';
      this.#unsubscribe?.();
      this.#unsubscribe = undefined;
      const waiting = [...this.#pending.values()];
      this.#pending.clear();
      for (const pending of waiting) {
        pending.reject(new ScheduleThreadGoneError(error.message, { cause: error }));
      }
      this.#drained?.();
    };
    thread.on('error', gone);
    thread.on('exit', (code) => gone(new Error(`The schedule thread exited (${code}).`)));
    this.#thread = thread;
    return thread;
  }

  #answered(thread: Worker, answer: ThreadAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (this.#pending.size === 0) {
      thread.unref();
      this.#drained?.();
    }
    this.#changes += answer.changes ?? 0;
    if (this.#changes >= pokeChanges) {
      this.#changes = 0;
      this.#checkpointer?.poke();
    }
    pending.resolve(answer);
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
  const file = sharedWalFile(database);
  if (file === undefined) return undefined;
  const driver = betterSqlitePath();
  if (driver === undefined) return undefined;
  return new SqliteScheduleThread(
    driver,
    file,
    Number(database.pragma('busy_timeout', { simple: true })),
    Number(database.pragma('synchronous', { simple: true })),
    checkpointerOf(database),
  );
}

function toError(described: { name: string; message: string; code?: string }): Error {
  const error = new Error(described.message) as Error & { code?: string };
  error.name = described.name;
  if (described.code !== undefined) error.code = described.code;
  return error;
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
    if (error instanceof ScheduleThreadGoneError) return undefined;
    throw error;
  }
}
