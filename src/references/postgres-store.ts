import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { ConfigurationError } from '../errors/configuration-error.js';
import { guardPool, unguardPool } from './postgres-crash-guard.js';
import { migrateToLatest } from './sql/migrations.js';
import { SqlReferenceStore, type SqlReferenceStoreOptions } from './sql/sql-store.js';
import type { StoreDatabase } from './sql/table.js';

/** Options of {@link PostgresReferenceStore.open}. */
export interface PostgresReferenceStoreOptions extends SqlReferenceStoreOptions {
  /** Pool size when pesakit creates the pool from a connection string. @default 10 */
  maxConnections?: number;
  /**
   * The PostgreSQL schema that holds the store's tables (`pesakit_transactions`,
   * `pesakit_migration*`); created if missing. Give each store sharing a database its own.
   * @default 'public'
   */
  schema?: string;
}

/**
 * The reference store in PostgreSQL (pg): for merchants running many instances. All of them
 * see the same records; the unique constraints make sure each reference has one owner, and
 * every change locks its row, so concurrent writers never lose an update.
 *
 * @example
 * import { PostgresReferenceStore } from 'pesakit/postgres';
 * const store = await PostgresReferenceStore.open(process.env.DATABASE_URL);
 */
export class PostgresReferenceStore extends SqlReferenceStore {
  private constructor(
    db: Kysely<StoreDatabase>,
    release: () => Promise<void>,
    options: SqlReferenceStoreOptions,
  ) {
    super(db, 'postgres', release, options);
  }

  /**
   * Connects with a connection string (pesakit owns that pool and ends it on `close()`) or an
   * existing `pg.Pool` (left open on `close()`), and applies any pending migrations to the
   * tables in `options.schema`.
   */
  static async open(
    connection: string | pg.Pool,
    options: PostgresReferenceStoreOptions = {},
  ): Promise<PostgresReferenceStore> {
    const { schema, maxConnections } = checkOptions(connection, options);
    const owned = typeof connection === 'string';
    const pool = owned
      ? new pg.Pool({ connectionString: connection, max: maxConnections })
      : connection;
    // An idle connection the server drops (a restart, a failover) emits 'error' on the pool;
    // unhandled, that would crash the process. The pool discards the client and the next
    // query opens a new one, so there is nothing else to do.
    if (owned) pool.on('error', () => {});
    // A connection dropped while a store call has it checked out must not crash the process.
    guardPool(pool);
    const root = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
    const db = root.withSchema(schema);
    try {
      await migrateToLatest(db as Kysely<unknown>, { dialect: 'postgres', schema });
    } catch (error) {
      unguardPool(pool);
      if (owned) await root.destroy();
      throw error;
    }
    // Kysely's destroy() ends the pool: only do that when pesakit created it.
    const release = async () => {
      unguardPool(pool);
      if (owned) await root.destroy();
    };
    return new PostgresReferenceStore(db, release, options);
  }
}

/** PostgreSQL keeps the first 63 bytes of an identifier and drops the rest without a word. */
const maxIdentifierBytes = 63;

/**
 * The options, checked before anything connects: a pool of 0 connections would answer no call
 * (open() resolves, the first query waits forever), and a schema name PostgreSQL truncates
 * would put two stores with different long names in one schema.
 */
function checkOptions(
  connection: unknown,
  options: PostgresReferenceStoreOptions,
): { schema: string; maxConnections: number } {
  // Duck-typed: an application with its own copy of pg passes a Pool of another class.
  const isPool =
    typeof connection === 'object' &&
    connection !== null &&
    typeof (connection as { connect?: unknown }).connect === 'function';
  if (typeof connection !== 'string' && !isPool) {
    throw new ConfigurationError(
      'connection',
      'PostgresReferenceStore.open: connection must be a connection string or a pg.Pool.',
    );
  }
  const { schema = 'public', maxConnections = 10 } = options ?? {};
  if (
    typeof schema !== 'string' ||
    schema.length === 0 ||
    Buffer.byteLength(schema) > maxIdentifierBytes ||
    schema.includes('\u0000')
  ) {
    throw new ConfigurationError(
      'schema',
      `PostgresReferenceStore.open: schema must be a name of 1 to ${maxIdentifierBytes} bytes ` +
        '(PostgreSQL truncates a longer one).',
    );
  }
  if (
    typeof maxConnections !== 'number' ||
    !Number.isInteger(maxConnections) ||
    maxConnections < 1
  ) {
    throw new ConfigurationError(
      'maxConnections',
      'PostgresReferenceStore.open: maxConnections must be a whole number of at least 1.',
    );
  }
  return { schema, maxConnections };
}
