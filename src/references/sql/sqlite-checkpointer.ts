import type Database from 'better-sqlite3';
import { checkpointerThreadSource } from '../inbox/sqlite-inbox-checkpointer-source.js';
import { betterSqlitePath } from './better-sqlite-path.js';
import { SqliteThreadClient, type ThreadAnswer } from './sqlite-thread-client.js';
import { type SqliteThreadFile, sqliteThreadFile } from './sqlite-thread-connection.js';

/**
 * The one checkpoint policy of a SQLite store file (issue #11: the inbox writer had a
 * checkpointer thread while the store's own connection kept SQLite's automatic checkpoint,
 * which ran inside its commits, on the event loop).
 *
 * - `backstopPages`: every connection's `wal_autocheckpoint` while the thread runs (16 MiB of
 *   WAL) — on, not off, so the WAL stays bounded should the thread fall behind.
 * - `pollMs` / `changes`: the store's own connection is watched by an unref'd timer reading its
 *   `total_changes()` (one prepared statement, no disk): past `changes` rows written since the
 *   last poke, poke. A money call's intent writes ~12 pages of WAL (measured: 50 intents, 602
 *   frames), so 40 rows is about half of SQLite's own cadence of 1,000 pages.
 * - `settleMs`: the thread checkpoints once more after a burst (sqlite-inbox-checkpointer-source).
 */
export const checkpointPolicy = {
  backstopPages: 4000,
  pollMs: 250,
  changes: 40,
  settleMs: 500,
};

type Listener = (pages: number) => void;

/** The checkpointer of each store connection, for the inbox writer to find (no new option). */
const byConnection = new WeakMap<Database.Database, SqliteCheckpointer>();

/** The checkpointer the store opened on `database`, if any. */
export function checkpointerOf(database: Database.Database): SqliteCheckpointer | undefined {
  return byConnection.get(database);
}

/**
 * Opens the checkpointer of `database` when it is a file in WAL mode, open for writing
 * (`undefined` otherwise: `:memory:` and rollback journals have no WAL to copy). The thread
 * starts lazily, with the first poke; until then nothing changes on the connection.
 */
export function sqliteCheckpointer(database: Database.Database): SqliteCheckpointer | undefined {
  const file = sqliteThreadFile(database);
  if (file === undefined) return undefined;
  const checkpointer = new SqliteCheckpointer(database, file);
  byConnection.set(database, checkpointer);
  return checkpointer;
}

/**
 * One checkpointer thread per store file, serving every connection of the store: the store's
 * own (watched by a timer) and the inbox writer thread's (which pokes through
 * {@link SqliteCheckpointer.poke}). While it runs, each connection's automatic checkpoint is at
 * the backstop; if it cannot start or dies, each goes back to the store connection's own
 * setting as found at open (SQLite's 1,000 for a connection pesakit opened) and commits
 * checkpoint in themselves as before. `close()` ends the thread and puts the setting back.
 */
export class SqliteCheckpointer {
  readonly #database: Database.Database;
  /** The thread's connection takes the store connection's settings, as read at open. */
  readonly #file: SqliteThreadFile;
  /** The connection's own `wal_autocheckpoint`, put back on failure and at close. */
  readonly #ownPages: number;
  /** The setting as last applied to the connection (it can be busy, see {@link #apply}). */
  #appliedPages: number;
  readonly #totalChanges: Database.Statement;
  #state: 'idle' | 'running' | 'failed' | 'closed' = 'idle';
  /** It is only posted to: no call waits for an answer. */
  #thread: SqliteThreadClient<ThreadAnswer> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #changesAtPoke: number;
  readonly #listeners = new Set<Listener>();

  /** Use {@link sqliteCheckpointer}. */
  constructor(database: Database.Database, file: SqliteThreadFile) {
    this.#database = database;
    this.#file = file;
    this.#ownPages = Number(database.pragma('wal_autocheckpoint', { simple: true }));
    this.#appliedPages = this.#ownPages;
    this.#totalChanges = database.prepare('select total_changes()').pluck();
    this.#changesAtPoke = this.#changes();
    this.#timer = setInterval(() => this.#watch(), checkpointPolicy.pollMs);
    this.#timer.unref();
  }

  /** The `wal_autocheckpoint` every connection of the file should have now. */
  pages(): number {
    return this.#state === 'running' ? checkpointPolicy.backstopPages : this.#ownPages;
  }

  /** Calls `listener` with the new {@link pages} whenever it changes; returns the unsubscribe. */
  onPages(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Some connection committed a few MiB of WAL: checkpoint soon, on the thread. */
  poke(): void {
    this.start();
    this.#thread?.post({ changed: true });
  }

  /** Starts the thread if it has not started (a writer about to write calls it first). */
  start(): void {
    if (this.#state !== 'idle') return;
    // Resolved here, not at open: most stores never start a thread.
    const driver = betterSqlitePath();
    if (driver === undefined) {
      this.#fail();
      return;
    }
    try {
      // Never what keeps a process alive: with no call ever waiting, it is never referenced.
      this.#thread = new SqliteThreadClient({
        name: 'checkpointer',
        source: checkpointerThreadSource,
        workerData: { ...this.#file, driver, settleMs: checkpointPolicy.settleMs },
        gone: () => this.#fail(),
      });
    } catch {
      this.#fail();
      return;
    }
    this.#state = 'running';
    this.#setPages();
  }

  /** Ends the thread (waiting for its exit) and puts the connection's setting back. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    const thread = this.#state === 'running' ? this.#thread : undefined;
    this.#state = 'closed';
    this.#thread = undefined;
    clearInterval(this.#timer);
    this.#listeners.clear();
    if (this.#database.open && this.#appliedPages !== this.#ownPages) {
      try {
        this.#database.pragma(`wal_autocheckpoint = ${this.#ownPages}`);
      } catch {
        // busy at close (a merchant's iterator still open): nothing left to retry it
      }
    }
    if (byConnection.get(this.#database) === this) byConnection.delete(this.#database);
    await thread?.close();
  }

  #watch(): void {
    if (!this.#database.open) {
      clearInterval(this.#timer); // a merchant's handle closed under the store
      return;
    }
    this.#apply();
    if (this.#state === 'failed') {
      if (this.#appliedPages === this.pages()) clearInterval(this.#timer);
      return;
    }
    let changes: number;
    try {
      changes = this.#changes();
    } catch {
      return; // busy (a merchant's iterator open on the handle): the next tick reads it
    }
    if (changes - this.#changesAtPoke < checkpointPolicy.changes) return;
    this.#changesAtPoke = changes;
    this.poke();
  }

  #changes(): number {
    return Number(this.#totalChanges.get());
  }

  /** The thread could not start or is gone: commits checkpoint in themselves again. */
  #fail(): void {
    if (this.#state === 'closed' || this.#state === 'failed') return;
    this.#state = 'failed';
    this.#thread = undefined;
    // The timer stays until the setting is back on the connection (see #watch).
    this.#setPages();
  }

  #setPages(): void {
    this.#apply();
    const pages = this.pages();
    for (const listener of this.#listeners) listener(pages);
  }

  /**
   * Sets the connection's `wal_autocheckpoint` to {@link pages}. Never throws: better-sqlite3
   * refuses any statement while an iterator is open on the connection (a merchant's handle may
   * have one across an `await`), and then the next tick of the timer tries again.
   */
  #apply(): void {
    const pages = this.pages();
    if (pages === this.#appliedPages || !this.#database.open) return;
    try {
      this.#database.pragma(`wal_autocheckpoint = ${pages}`);
      this.#appliedPages = pages;
    } catch {
      // busy: retried by #watch
    }
  }
}
