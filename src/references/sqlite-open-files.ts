import { existsSync, realpathSync } from 'node:fs';
import type Database from 'better-sqlite3';

/**
 * One lock per SQLite file per process, shared by every store of this process on that file.
 *
 * better-sqlite3 is synchronous: a connection that finds the file's write lock taken waits for
 * it (`busy_timeout`) with the event loop blocked. A store holds the lock across an `await`
 * inside its transactions, so when two stores of one process opened the same file, the second
 * one's wait blocked the very loop the first needed to commit: a 5 s freeze, then SQLITE_BUSY
 * "database is locked" (found with two callback receivers, each opening the file). With this
 * lock, a store's connection waits its turn in the event loop, as an `await`, while another
 * store of the process is using the file. Separate processes, and the store's own threads,
 * are other threads: their waits block nobody's loop, and `busy_timeout` serves them.
 */
export class SqliteFileLock {
  #holder: object | undefined;
  readonly #waiting: Array<{ holder: object; resume: () => void }> = [];

  /** Takes the lock for `holder`: at once (no await) when it is free, else in turn. */
  take(holder: object): Promise<void> | undefined {
    if (this.#holder === undefined) {
      this.#holder = holder;
      return undefined;
    }
    return new Promise((resume) => this.#waiting.push({ holder, resume }));
  }

  /** Hands the lock to the next in line, or frees it. */
  release(): void {
    const next = this.#waiting.shift();
    this.#holder = next?.holder;
    next?.resume();
  }

  /** Whether a holder other than `holder` has the lock (a synchronous write must not wait). */
  heldByOther(holder: object): boolean {
    return this.#holder !== undefined && this.#holder !== holder;
  }
}

/** A store's share of its file's lock: `holder` is the store's own identity in it. */
export interface SqliteFileShare {
  readonly lock: SqliteFileLock;
  readonly holder: object;
  /** Whether another store of this process is using the file right now. */
  busyElsewhere(): boolean;
  /** The store closed: the file's lock is dropped with its last store. */
  letGo(): void;
}

const files = new Map<string, { lock: SqliteFileLock; stores: number }>();
const shares = new WeakMap<Database.Database, SqliteFileShare>();

/** The file's real path, or undefined for an in-memory database. */
function fileKey(database: Database.Database): string | undefined {
  const path = database.memory ? undefined : database.name;
  if (path === undefined || path === '' || path === ':memory:' || !existsSync(path)) return;
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Joins `database` (a store's connection, just opened) to its file's lock; an in-memory
 * database gets a lock of its own (no other connection can see it).
 */
export function shareFileLock(database: Database.Database): SqliteFileShare {
  const key = fileKey(database);
  const entry = (key !== undefined ? files.get(key) : undefined) ?? {
    lock: new SqliteFileLock(),
    stores: 0,
  };
  entry.stores += 1;
  if (key !== undefined) files.set(key, entry);
  const holder = {};
  let joined = true;
  const share: SqliteFileShare = {
    lock: entry.lock,
    holder,
    busyElsewhere: () => entry.lock.heldByOther(holder),
    letGo: () => {
      if (!joined) return;
      joined = false;
      shares.delete(database);
      entry.stores -= 1;
      if (key !== undefined && entry.stores === 0 && files.get(key) === entry) files.delete(key);
    },
  };
  shares.set(database, share);
  return share;
}

/**
 * Whether another store of this process is using `database`'s file now: the synchronous fast
 * paths (one better-sqlite3 transaction, no await) then take the awaiting path instead of
 * blocking the loop on the file's write lock.
 */
export function fileBusyElsewhere(database: Database.Database): boolean {
  return shares.get(database)?.busyElsewhere() ?? false;
}

/**
 * Runs a synchronous write on `database` when no other store of this process is using its file
 * — at once when none is, else after its turn comes (an `await`, not a blocked event loop).
 */
export async function inFileTurn<T>(database: Database.Database, write: () => T): Promise<T> {
  const share = shares.get(database);
  if (share === undefined || !share.busyElsewhere()) return write();
  const turn = share.lock.take(share.holder);
  if (turn !== undefined) await turn;
  try {
    return write();
  } finally {
    share.lock.release();
  }
}
