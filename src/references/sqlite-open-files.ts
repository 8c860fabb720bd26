import { existsSync, realpathSync } from 'node:fs';
import type Database from 'better-sqlite3';

/**
 * One lock per SQLite file per process, shared by every store of this process on that file.
 *
 * better-sqlite3 is synchronous: a connection that finds the file's write lock taken waits for
 * it (`busy_timeout`) with the event loop blocked. A store holds the lock across an `await`
 * inside its transactions, so when two stores of one process open the same file, the second
 * one's wait would block the very loop the first needs to commit: a freeze, then SQLITE_BUSY.
 * With this lock, a store waits its turn in the event loop, as an `await`, while another store
 * of the process is using the file. Other processes block nobody's loop: `busy_timeout` serves
 * them.
 */
export class SqliteFileLock {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  /** Takes the lock: at once when it is free, else in turn. */
  async take(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resume) => this.#waiting.push(resume));
  }

  /** Hands the lock to the next in line, or frees it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

const files = new Map<string, { lock: SqliteFileLock; stores: number }>();

/**
 * Joins `database` to its file's lock; an in-memory database gets a lock of its own (no other
 * connection can see it). `letGo` drops the store's share, and the file's lock with its last.
 */
export function shareFileLock(database: Database.Database): {
  lock: SqliteFileLock;
  letGo: () => void;
} {
  const path = database.memory ? undefined : database.name;
  const key = path && existsSync(path) ? realpathSync(path) : undefined;
  const entry = (key && files.get(key)) || { lock: new SqliteFileLock(), stores: 0 };
  entry.stores += 1;
  if (key) files.set(key, entry);
  let joined = true;
  return {
    lock: entry.lock,
    letGo: () => {
      if (!joined) return;
      joined = false;
      entry.stores -= 1;
      if (key && entry.stores === 0 && files.get(key) === entry) files.delete(key);
    },
  };
}
