import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import type { SqliteFileShare } from '../sqlite-open-files.js';

/**
 * Kysely's SQLite dialect with every transaction begun IMMEDIATE (the write lock taken at
 * BEGIN) instead of deferred. The store's transactions read the record, then write it; begun
 * deferred, a commit by another connection to the file in between — the reconciler's schedule
 * thread, the inbox writer thread — leaves the transaction's snapshot stale, and SQLite refuses
 * its write at once with SQLITE_BUSY_SNAPSHOT (no busy wait can help a stale snapshot). Begun
 * IMMEDIATE, the transaction waits its turn (`busy_timeout`) before it reads anything.
 *
 * The connection is also held under the file's lock in this process (sqlite-open-files.ts):
 * another store of this process on the same file waits for it as an `await`, never inside
 * SQLite's busy wait with the event loop blocked.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #file: SqliteFileShare;

  constructor(config: SqliteDialectConfig, file: SqliteFileShare) {
    super(config);
    this.#config = config;
    this.#file = file;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#file);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  readonly #file: SqliteFileShare;

  constructor(config: SqliteDialectConfig, file: SqliteFileShare) {
    super(config);
    this.#file = file;
  }

  // Kysely's own mutex first (one user of this connection), then the file's: every store
  // takes them in that order, so two stores never wait on each other in a circle.
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    const turn = this.#file.lock.take(this.#file.holder);
    if (turn !== undefined) await turn;
    return connection;
  }

  override async releaseConnection(): Promise<void> {
    this.#file.lock.release();
    await super.releaseConnection();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
