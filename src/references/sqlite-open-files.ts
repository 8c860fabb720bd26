import { existsSync, realpathSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { ConfigurationError } from '../errors/configuration-error.js';

/**
 * The SQLite files a store of this process has open, by real path: one store per file per
 * process. better-sqlite3 is synchronous, so a second store's connection waiting for the write
 * lock (`busy_timeout`) blocks the event loop — and the first store, on that same loop, holds
 * the lock across an `await` inside its transaction: it can never commit. The wait runs out and
 * the call fails with SQLITE_BUSY "database is locked" (found with two callback receivers on one
 * file in one process). Two processes do not have this problem: each one's transaction goes on
 * while the other waits, so they take turns. (The store's own threads are other threads, too.)
 */
const openFiles = new Set<string>();

/** The file's real path, or undefined for an in-memory database or a file not there yet. */
export function sqliteFileKey(file: string | Database.Database): string | undefined {
  const path = typeof file === 'string' ? file : file.memory ? undefined : file.name;
  if (path === undefined || path === '' || path === ':memory:' || !existsSync(path)) return;
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Refuses a file another store of this process has open, before anything is touched. */
export function refuseOpenFile(file: string | Database.Database): void {
  const key = sqliteFileKey(file);
  if (key === undefined || !openFiles.has(key)) return;
  throw new ConfigurationError(
    'file',
    `SqliteReferenceStore.open: ${key} is already open by another store in this process. ` +
      'Two stores on one SQLite file in one process wait on each other with the event loop ' +
      "blocked and fail with 'database is locked'. Open the file once and pass that store to " +
      'every client and receiver of this process (`new Pesakit({ store })`: several receivers ' +
      'can share it), or close the first store before opening the file again. Separate ' +
      'processes may share one file; for many instances, use PostgresReferenceStore.',
  );
}

/** Marks the file open by a store; the returned function marks it closed. */
export function holdOpenFile(file: string | Database.Database): () => void {
  const key = sqliteFileKey(file);
  if (key === undefined || openFiles.has(key)) return () => {};
  openFiles.add(key);
  return () => {
    openFiles.delete(key);
  };
}
