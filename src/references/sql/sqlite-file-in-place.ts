import { type BigIntStats, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type Database from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { StoreFault } from '../../errors/store-error.js';

/**
 * `handle`, refusing each statement that writes once the file at the database's path is no
 * longer the file it opened. A file deleted (or its folder) or renamed over stays open to this
 * process, and SQLite goes on committing into it; a store opened on the path later sees none of
 * those commits, so a payout recorded only there would be paid again. better-sqlite3 offers no
 * `fstat` of its open file, so the path's device and inode, taken at open, stand for it: one
 * `stat` per writing statement. An in-memory database or a `file:` URI has no path to check.
 */
export function writingInPlace(
  handle: SqliteDatabase,
  database: Database.Database,
): SqliteDatabase {
  const name = database.name.trim();
  if (database.memory || name.startsWith('file:')) return handle;
  // A relative path is taken from the working directory, as SQLite took it at open.
  const path = resolve(name);
  const opened = identity(path);
  return {
    close: () => handle.close(),
    prepare(sql) {
      const statement = handle.prepare(sql);
      // better-sqlite3's statements say whether they write; Kysely's interface leaves it out.
      if (!(statement as Database.Statement).readonly) assertInPlace(path, opened);
      return statement;
    },
  };
}

function identity(path: string): BigIntStats | undefined {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    // A folder on the path gone or unreadable: the file cannot be the one opened either.
    return undefined;
  }
}

function assertInPlace(path: string, opened: BigIntStats | undefined): void {
  const now = identity(path);
  if (now && opened && now.ino === opened.ino && now.dev === opened.dev) return;
  throw new StoreFault(
    `its SQLite file at ${JSON.stringify(path)} was deleted or replaced while the store was open, ` +
      'so this write was refused: a store opened on that path would never see it. A payment ' +
      'whose answer could not be recorded has an unknown outcome: do not send it again. Restore ' +
      'the file to that path and open a new store on it, or reconcile the recent payments with ' +
      'the platform (a status or list pull) before paying any of them again',
  );
}
