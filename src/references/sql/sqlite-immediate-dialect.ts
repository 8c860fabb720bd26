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
 * Transactions begun IMMEDIATE: begun deferred, another connection's commit between the read
 * and the write fails it with SQLITE_BUSY_SNAPSHOT. Connections are held under the file's lock.
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
  // Kysely's mutex first, then the file's: one order, so no two stores wait in a circle.
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
