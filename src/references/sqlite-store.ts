import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { z } from 'zod';
import { ConfigurationError } from '../errors/configuration-error.js';
import { migrateToLatest } from './sql/migrations.js';
import { SqlReferenceStore, type SqlReferenceStoreOptions } from './sql/sql-store.js';
import { ImmediateSqliteDialect } from './sql/sqlite-immediate-dialect.js';
import type { StoreDatabase } from './sql/table.js';
import { shareFileLock } from './sqlite-open-files.js';

/** Options of {@link SqliteReferenceStore.open}. */
export interface SqliteReferenceStoreOptions extends SqlReferenceStoreOptions {
  /**
   * How long a write waits for another connection's lock before failing, in milliseconds
   * (SQLite's `busy_timeout`), on a file pesakit opens and on a handle you pass in alike.
   * @default 5000
   */
  busyTimeoutMs?: number;
}

/**
 * The reference store in a SQLite file (better-sqlite3): the embedded default for the CLI and
 * for a merchant running one process. Records survive restarts: reopen the same file and find
 * any transaction by any of its references. For many processes, use `PostgresReferenceStore`.
 *
 * @example
 * import { SqliteReferenceStore } from 'pesakit/sqlite';
 * const store = await SqliteReferenceStore.open('./pesakit.sqlite');
 */
export class SqliteReferenceStore extends SqlReferenceStore {
  private constructor(
    db: Kysely<StoreDatabase>,
    release: () => Promise<void>,
    options: SqlReferenceStoreOptions,
  ) {
    super(db, 'sqlite', release, options);
  }

  /**
   * Opens (creating it if needed) the store in `file` — a path, `':memory:'`, or a
   * better-sqlite3 `Database` you opened yourself (then `close()` leaves it open for you) — and
   * applies any pending migrations. Durable per commit either way: the file is put in WAL mode
   * with `synchronous = FULL` and `busy_timeout` set, on a handle you pass in too.
   */
  static async open(
    file: string | Database.Database,
    options: SqliteReferenceStoreOptions = {},
  ): Promise<SqliteReferenceStore> {
    // Checked before the file is touched: a bad option opens nothing.
    const { busyTimeoutMs = 5000 } = checkOptions(options);
    const owned = typeof file === 'string';
    const database = owned ? new Database(file) : file;
    try {
      makeDurable(database, busyTimeoutMs);
    } catch (error) {
      if (owned) database.close();
      throw error;
    }
    // Other stores of this process on the file wait for this one's turn in the event loop.
    const { lock, letGo } = shareFileLock(database);
    const db = new Kysely<StoreDatabase>({
      dialect: new ImmediateSqliteDialect({ database }, lock),
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
      throw error;
    }
    // Kysely's destroy() closes the database: only do that when pesakit opened it.
    const release = async () => {
      if (owned) await db.destroy();
      letGo();
    };
    return new SqliteReferenceStore(db, release, options);
  }
}

const optionsSchema = z.strictObject({
  now: z.function().optional(),
  busyTimeoutMs: z.number().int().min(0).optional(),
});

/** The options, or a ConfigurationError naming the first one that is wrong (or unknown). */
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

/**
 * WAL lets readers (a status page, the CLI) read while the SDK writes; `synchronous = FULL`
 * fsyncs every commit, so a write-ahead intent and an acknowledged callback outlive a power cut,
 * not only a crashed process (better-sqlite3 otherwise makes a connection to a file already in
 * WAL mode `NORMAL`). An in-memory database has no file to make durable.
 */
function makeDurable(database: Database.Database, busyTimeoutMs: number): void {
  if (!database.memory) {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
  }
  database.pragma(`busy_timeout = ${busyTimeoutMs}`);
}
