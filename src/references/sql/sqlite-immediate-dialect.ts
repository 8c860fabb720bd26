import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import type { SqliteFileLock } from '../sqlite-open-files.js';

/**
 * Kysely's SQLite dialect with every transaction begun IMMEDIATE (the write lock taken at
 * BEGIN) instead of deferred. The store's transactions read, then write; begun deferred, a
 * commit by another connection to the file in between (another process, the merchant's own
 * connection) leaves the transaction's snapshot stale, and SQLite refuses its write at once
 * with SQLITE_BUSY_SNAPSHOT (no busy wait can help a stale snapshot). Begun IMMEDIATE, the
 * transaction waits its turn (`busy_timeout`) before it reads anything.
 *
 * The connection is also held under the file's lock in this process (sqlite-open-files.ts):
 * another store of this process on the same file waits for it as an `await`, never inside
 * SQLite's busy wait with the event loop blocked.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #lock: SqliteFileLock;

  constructor(config: SqliteDialectConfig, lock: SqliteFileLock) {
    super(config);
    this.#config = config;
    this.#lock = lock;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#lock);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  readonly #lock: SqliteFileLock;

  constructor(config: SqliteDialectConfig, lock: SqliteFileLock) {
    super(config);
    this.#lock = lock;
  }

  // Kysely's own mutex first (one user of this connection), then the file's: every store
  // takes them in that order, so two stores never wait on each other in a circle.
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    await this.#lock.take();
    return connection;
  }

  override async releaseConnection(): Promise<void> {
    this.#lock.release();
    await super.releaseConnection();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
