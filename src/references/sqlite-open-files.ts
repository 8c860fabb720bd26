import { existsSync, realpathSync } from 'node:fs';
import type Database from 'better-sqlite3';

/**
 * One lock per SQLite file per process. better-sqlite3 waits for a write lock with the event
 * loop blocked, so two stores of one process on a file would freeze; this one waits as an await.
 */
export class SqliteFileLock {
  #held = false;
  readonly #waiting: Array<() => void> = [];
  async take(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resume) => this.#waiting.push(resume));
  }
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

const files = new Map<string, { lock: SqliteFileLock; stores: number }>();

/** An in-memory database gets a lock of its own; `letGo` drops the store's share. */
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
