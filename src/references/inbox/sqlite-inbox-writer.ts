import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { betterSqlitePath } from '../sql/better-sqlite-path.js';
import type { InboxRow } from '../sql/inbox-table.js';
import { sharedWalFile } from '../sql/shared-wal-file.js';
import { checkpointerOf, type SqliteCheckpointer } from '../sql/sqlite-checkpointer.js';
import {
  countDuplicateSql,
  type GroupWrite,
  insertSql,
  type RowOutcome,
} from './sqlite-group-write.js';
import { writerThreadSource } from './sqlite-inbox-writer-source.js';

/**
 * Checkpoints run on the store file's one checkpointer thread (sql/sqlite-checkpointer.ts),
 * poked after every `rows` callbacks committed (each writes 4–8 pages of WAL: about SQLite's own
 * cadence of 1,000 pages). The writer connection's own automatic checkpoint follows the
 * checkpointer's `pages()`: the backstop while it runs, SQLite's default (`defaultPages`) when
 * there is none (a handle the store did not open) or it is gone.
 */
const pokeEvery = { rows: 200, defaultPages: 1000 };

type ThreadOutcome =
  | null
  | { row: InboxRow }
  | { error: { name: string; message: string; code?: string } };

/** The writer connection's own settings, as it reports them. */
export interface WriterSettings {
  /** Pages of WAL past which a commit checkpoints itself: the backstop while the checkpointer runs. */
  walAutocheckpoint: number;
  synchronous: number;
  busyTimeout: number;
}

/**
 * What the thread answers to one message: a group's outcomes, or its settings — or, without an
 * id, `changed`: it committed `rows` more callbacks since its last poke.
 */
interface ThreadAnswer {
  id: number;
  changed?: true;
  outcomes?: ThreadOutcome[];
  settings?: WriterSettings;
}

interface Pending {
  resolve(answer: ThreadAnswer): void;
  reject(error: unknown): void;
}

/**
 * Writes the SQLite inbox's groups on a worker thread with its own connection to the same file
 * (WAL lets it write while the store's connection reads). The commit and its fsync then run off
 * the event loop: requests keep being parsed while a group is made durable, instead of all
 * waiting behind a synchronous better-sqlite3 transaction. A group still resolves only after
 * the commit that holds it, and dedup is still the unique `dedup_key` inside that commit.
 *
 * The thread starts with the first write (a store that never receives a callback starts none)
 * and keeps the process alive only while a write is in flight. `close()` ends it.
 */
export class SqliteInboxWriter {
  readonly #driver: string;
  readonly #file: string;
  readonly #busyTimeoutMs: number;
  readonly #synchronous: number;
  readonly #checkpointer: SqliteCheckpointer | undefined;
  #unsubscribe: (() => void) | undefined;
  #thread: Worker | undefined;
  #nextId = 0;
  readonly #pending = new Map<number, Pending>();
  #closed = false;

  /** Use {@link sqliteInboxWriter}, which decides whether a thread can share the database. */
  constructor(
    driver: string,
    file: string,
    busyTimeoutMs: number,
    synchronous: number,
    checkpointer?: SqliteCheckpointer,
  ) {
    this.#checkpointer = checkpointer;
    this.#driver = driver;
    this.#file = file;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#synchronous = synchronous;
  }

  readonly write: GroupWrite = (inserts) =>
    new Promise((resolve, reject) => {
      if (this.#closed) {
        reject(new Error('The SQLite inbox writer is closed; open the store again.'));
        return;
      }
      const thread = this.#started();
      const id = this.#nextId++;
      this.#pending.set(id, {
        resolve: (answer) => resolve((answer.outcomes ?? []).map(toOutcome)),
        reject,
      });
      if (this.#pending.size === 1) thread.ref();
      thread.postMessage({ id, inserts });
    });

  /**
   * What the thread's connection is set to (starting the thread if need be). Not used on any
   * path of the store: it lets a test see that the writer keeps its backstop
   * `wal_autocheckpoint` (a connection with it off would let the WAL grow without bound should
   * the checkpointer fall behind).
   */
  settings(): Promise<WriterSettings> {
    return new Promise((resolve, reject) => {
      if (this.#closed) {
        reject(new Error('The SQLite inbox writer is closed; open the store again.'));
        return;
      }
      const thread = this.#started();
      const id = this.#nextId++;
      this.#pending.set(id, {
        resolve: (answer) =>
          answer.settings
            ? resolve(answer.settings)
            : reject(new Error('The SQLite inbox writer did not report its settings.')),
        reject,
      });
      if (this.#pending.size === 1) thread.ref();
      thread.postMessage({ id, settings: true });
    });
  }

  /** Waits for nothing: callers finish their writes first (SqliteGroupAppender.close). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    const thread = this.#thread;
    this.#thread = undefined;
    if (!thread) return;
    const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
    // Referenced until it has gone: an idle writer is unref'd, and a program whose last work is
    // `await store.close()` would otherwise end with this promise unsettled — Node exits with
    // code 13 and nothing after the `await` runs.
    thread.ref();
    thread.postMessage({ close: true });
    await exited;
  }

  #started(): Worker {
    if (this.#thread) return this.#thread;
    // Callbacks are arriving: the file's checkpointer runs from now on, if it can.
    this.#checkpointer?.start();
    const thread = new Worker(writerThreadSource, {
      eval: true,
      workerData: {
        driver: this.#driver,
        file: this.#file,
        busyTimeoutMs: this.#busyTimeoutMs,
        synchronous: this.#synchronous,
        insertSql,
        countDuplicateSql,
        walAutocheckpoint: this.#checkpointer?.pages() ?? pokeEvery.defaultPages,
        pokeRows: this.#checkpointer ? pokeEvery.rows : 0,
      },
    });
    thread.unref();
    this.#unsubscribe?.();
    this.#unsubscribe = this.#checkpointer?.onPages((pages) =>
      thread.postMessage({ walAutocheckpoint: pages }),
    );
    thread.on('message', (message: ThreadAnswer) => {
      if (message.changed) {
        this.#checkpointer?.poke();
        return;
      }
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (this.#pending.size === 0) thread.unref();
      pending.resolve(message);
    });
    const fail = (error: Error) => {
      // The thread is gone (it could not open the file, or crashed): nobody waiting was
      // answered, so nobody was told their callback is stored. The next write starts anew.
      if (this.#thread === thread) this.#thread = undefined;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    thread.on('error', fail);
    thread.on('exit', (code) => {
      if (this.#pending.size > 0)
        fail(new Error(`The SQLite inbox writer thread exited (${code}).`));
      if (this.#thread === thread) this.#thread = undefined;
    });
    this.#thread = thread;
    return thread;
  }
}

/**
 * The writer for `database`: a thread of its own when another connection can share the file
 * (a file in WAL mode, opened for writing), otherwise `undefined` (the caller writes in-thread).
 */
export function sqliteInboxWriter(database: Database.Database): SqliteInboxWriter | undefined {
  const file = sharedWalFile(database);
  if (file === undefined) return undefined;
  const driver = betterSqlitePath();
  // A bundle that inlined pesakit may not see better-sqlite3 from here: write in-thread then.
  if (driver === undefined) return undefined;
  return new SqliteInboxWriter(
    driver,
    file,
    Number(database.pragma('busy_timeout', { simple: true })),
    Number(database.pragma('synchronous', { simple: true })),
    checkpointerOf(database),
  );
}

function toOutcome(outcome: ThreadOutcome): RowOutcome {
  if (outcome === null) return { kind: 'inserted' };
  if ('row' in outcome) return { kind: 'duplicate', row: outcome.row };
  const error = new Error(outcome.error.message) as Error & { code?: string };
  error.name = outcome.error.name;
  if (outcome.error.code !== undefined) error.code = outcome.error.code;
  return { kind: 'failed', error };
}
