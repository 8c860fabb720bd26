import type Database from 'better-sqlite3';
import { betterSqlitePath } from './better-sqlite-path.js';
import { sharedWalFile } from './shared-wal-file.js';

/**
 * What a store thread's own connection copies from the store's: the file, and the settings the
 * store's connection has (its `busy_timeout`, so the two take turns at the write lock alike; its
 * `synchronous`, so a commit on the thread is as durable as one on the event loop).
 */
export interface SqliteThreadFile {
  file: string;
  busyTimeoutMs: number;
  synchronous: number;
}

/** A {@link SqliteThreadFile} and where better-sqlite3 is, for the thread's `require`. */
export interface SqliteThreadConnection extends SqliteThreadFile {
  driver: string;
}

/**
 * The file and settings of `database` for a thread's connection, read now (later the connection
 * may be busy iterating a merchant's query) — `undefined` unless another connection can share
 * the file (on disk, WAL, writable: see sharedWalFile).
 */
export function sqliteThreadFile(database: Database.Database): SqliteThreadFile | undefined {
  const file = sharedWalFile(database);
  if (file === undefined) return undefined;
  return {
    file,
    busyTimeoutMs: Number(database.pragma('busy_timeout', { simple: true })),
    synchronous: Number(database.pragma('synchronous', { simple: true })),
  };
}

/**
 * {@link sqliteThreadFile} with the driver found now. `undefined` too when a bundle that inlined
 * pesakit cannot see better-sqlite3 from here: the caller then works on the store's connection.
 */
export function sqliteThreadConnection(
  database: Database.Database,
): SqliteThreadConnection | undefined {
  const file = sqliteThreadFile(database);
  if (file === undefined) return undefined;
  const driver = betterSqlitePath();
  return driver === undefined ? undefined : { ...file, driver };
}
