import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/**
 * Kysely's SQLite dialect with every transaction begun IMMEDIATE (the write lock taken at
 * BEGIN) instead of deferred. The store's transactions read the record, then write it; begun
 * deferred, a commit by another connection to the file in between — the reconciler's schedule
 * thread, the inbox writer thread — leaves the transaction's snapshot stale, and SQLite refuses
 * its write at once with SQLITE_BUSY_SNAPSHOT (no busy wait can help a stale snapshot). Begun
 * IMMEDIATE, the transaction waits its turn (`busy_timeout`) before it reads anything.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
