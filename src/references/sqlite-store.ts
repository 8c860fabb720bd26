import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-error.js';
import { storeFailure } from '../errors/store-error.js';
import { migrateToLatest } from './sql/migrations.js';
import { SqlReferenceStore, type SqlReferenceStoreOptions } from './sql/sql-store.js';
import { writingInPlace } from './sql/sqlite-file-in-place.js';
import { ImmediateSqliteDialect } from './sql/sqlite-immediate-dialect.js';
import { reusingStatements } from './sql/sqlite-statements.js';
import type { StoreDatabase } from './sql/table.js';
import { shareFileLock } from './sqlite-open-files.js';

export interface SqliteReferenceStoreOptions extends SqlReferenceStoreOptions {
  /** SQLite's `busy_timeout`, on a handle you pass in too. @default 5000 */
  busyTimeoutMs?: number;
}

/** The store in a SQLite file, for one process. */
export class SqliteReferenceStore extends SqlReferenceStore {
  /** A path, `':memory:'` or your own `Database` (left open on `close()`); durable per commit. */
  static async open(
    file: string | Database.Database,
    options: SqliteReferenceStoreOptions = {},
  ): Promise<SqliteReferenceStore> {
    const { busyTimeoutMs = 5000 } = checkOptions(options);
    const owned = typeof file === 'string';
    const database = owned ? openFile(file) : file;
    try {
      makeDurable(database, busyTimeoutMs);
    } catch (error) {
      if (owned) database.close();
      throw error;
    }
    const { lock, letGo } = shareFileLock(database);
    const handle = writingInPlace(reusingStatements(database), database);
    const db = new Kysely<StoreDatabase>({
      dialect: new ImmediateSqliteDialect({ database: handle }, lock),
    });
    const where = { dialect: 'sqlite', file: database.memory ? undefined : database.name } as const;
    try {
      await migrateToLatest(db as Kysely<unknown>, where);
    } catch (error) {
      try {
        if (owned) await db.destroy();
      } finally {
        letGo();
      }
      throw storeFailure('open', error);
    }
    const release = async () => {
      if (owned) await db.destroy();
      letGo();
    };
    return new SqliteReferenceStore(db, 'sqlite', release, options);
  }
}

const optionsSchema = z.strictObject({
  now: z.function().optional(),
  busyTimeoutMs: z.number().int().min(0).optional(),
});

/** better-sqlite3's own error for a missing folder is a TypeError that does not name the path. */
function openFile(file: string): Database.Database {
  try {
    return new Database(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(
      'file',
      `SqliteReferenceStore.open: cannot open ${JSON.stringify(file)}: ${reason}. Create its folder, or pass another path.`,
    );
  }
}

function checkOptions(options: unknown): { busyTimeoutMs?: number | undefined } {
  const parsed = optionsSchema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const option =
    issue?.code === 'unrecognized_keys' ? String(issue.keys[0]) : (issue?.path.join('.') ?? '');
  throw new ConfigurationError(
    option,
    `SqliteReferenceStore.open: ${
      issue?.code === 'unrecognized_keys'
        ? `${option} is not an option (the options are now and busyTimeoutMs)`
        : option === 'busyTimeoutMs'
          ? 'busyTimeoutMs must be a whole number of milliseconds, 0 or more'
          : `${option} must be a function returning the current Date`
    }.`,
  );
}

/** WAL lets readers read during writes; `synchronous = FULL`: every commit outlives a power cut. */
function makeDurable(database: Database.Database, busyTimeoutMs: number): void {
  if (!database.memory) {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
  }
  database.pragma(`busy_timeout = ${busyTimeoutMs}`);
}
