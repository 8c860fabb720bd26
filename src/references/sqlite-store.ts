import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { parseSqliteInboxOptions, type SqliteInboxOptions } from './inbox/sqlite-inbox-options.js';
import { migrateToLatest } from './sql/migrations.js';
import { SqlReferenceStore, type SqlReferenceStoreOptions } from './sql/sql-store.js';
import { sqliteCheckpointer } from './sql/sqlite-checkpointer.js';
import { ImmediateSqliteDialect } from './sql/sqlite-immediate-dialect.js';
import { type SqliteScheduleThread, sqliteScheduleThread } from './sql/sqlite-schedule-worker.js';
import { withStatementCache } from './sql/statement-cache.js';
import type { StoreDatabase } from './sql/table.js';
import { shareFileLock } from './sqlite-open-files.js';

/** Options of {@link SqliteReferenceStore.open}. */
export interface SqliteReferenceStoreOptions extends SqlReferenceStoreOptions {
  /**
   * How long a write waits for another connection's lock before failing, in milliseconds
   * (SQLite's `busy_timeout`). Only set when pesakit opens the file itself.
   * @default 5000
   */
  busyTimeoutMs?: number;
  /**
   * The callback inbox's group commit. `gatherMs`: while callbacks are flowing, how long a
   * small group may wait for more before its commit (one commit and fsync shared by more
   * callbacks: less CPU per callback, up to `gatherMs` more latency); a lone callback is
   * committed at once. `0` turns it off. At most 50.
   * @default { gatherMs: 1 }
   */
  inbox?: SqliteInboxOptions;
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
    database: Database.Database,
    inboxGatherMs: number,
    scheduleThread: SqliteScheduleThread | undefined,
  ) {
    super(db, 'sqlite', release, options, database, inboxGatherMs, scheduleThread);
  }

  /**
   * Opens (creating it if needed) the store in `file` — a path, `':memory:'`, or a
   * better-sqlite3 `Database` you opened yourself (then `close()` leaves it open for you) — and
   * applies any pending migrations.
   */
  static async open(
    file: string | Database.Database,
    options: SqliteReferenceStoreOptions = {},
  ): Promise<SqliteReferenceStore> {
    // Checked before the file is touched: a bad option opens nothing.
    const { gatherMs } = parseSqliteInboxOptions(options.inbox);
    const owned = typeof file === 'string';
    const database = owned ? new Database(file) : file;
    if (owned) {
      // WAL lets readers (a status page, the CLI) read while the SDK writes.
      if (file !== ':memory:') database.pragma('journal_mode = WAL');
      // Every commit is fsynced, on the first run and on every reopen alike: a write-ahead intent
      // must outlive a power cut, not only a crashed process. (Left alone, better-sqlite3's
      // build makes a connection to a file already in WAL mode `synchronous = NORMAL`, so a
      // store was durable per commit only on the run that created it.)
      if (file !== ':memory:') database.pragma('synchronous = FULL');
      database.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    }
    // Other stores of this process on the file wait for this one's turn in the event loop
    // (sqlite-open-files.ts).
    const fileShare = shareFileLock(database);
    const letGo = fileShare.letGo;
    const db = new Kysely<StoreDatabase>({
      // Transactions begin IMMEDIATE: other connections write to the file (the threads below).
      dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }, fileShare),
    });
    try {
      await migrateToLatest(db as Kysely<unknown>, 'sqlite');
    } catch (error) {
      try {
        if (owned) await db.destroy();
      } finally {
        letGo();
      }
      throw error;
    }
    // One checkpoint policy for the file, every connection of the store (the inbox writer's
    // finds it from `database`): a file in WAL mode, the merchant's own handle included — its
    // `wal_autocheckpoint` is put back at close. Before the store, whose inbox looks it up.
    const checkpointer = sqliteCheckpointer(database);
    // The reconciler's lease and release on a thread of their own connection — only for a file
    // pesakit opened: a merchant's handle may hold a transaction open across an await (a
    // thread's lease would wait behind it until busy_timeout) or be opened in ways a second
    // connection cannot repeat (a key, a VFS, its own build); it keeps them on its connection.
    const scheduleThread = owned ? sqliteScheduleThread(database) : undefined;
    // Kysely's destroy() closes the database: only do that when pesakit opened it. The store
    // closes its inbox (and writer thread) before this.
    return new SqliteReferenceStore(
      db,
      async () => {
        await scheduleThread?.close();
        await checkpointer?.close();
        if (owned) await db.destroy();
        letGo();
      },
      options,
      database,
      gatherMs,
      scheduleThread,
    );
  }
}
