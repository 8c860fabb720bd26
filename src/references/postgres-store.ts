import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { ConfigurationError } from '../errors/configuration-error.js';
import { storeFailure } from '../errors/store-error.js';
import { guardPool, unguardPool } from './postgres-crash-guard.js';
import { migrateToLatest } from './sql/migrations.js';
import { SqlReferenceStore, type SqlReferenceStoreOptions } from './sql/sql-store.js';
import type { StoreDatabase } from './sql/table.js';

export interface PostgresReferenceStoreOptions extends SqlReferenceStoreOptions {
  /**
   * Pool size when pesakit creates the pool (a `pg.Pool` you pass keeps its own `max`). A
   * transaction holds one connection for a few milliseconds, and a reconciler's checks spend
   * their time waiting on the platform, so a few connections serve its whole `concurrency`:
   * N processes open at most N × this many (docs/reconciler.md, "Running many workers").
   * @default 4
   */
  maxConnections?: number;
  /** Created if missing; give each store sharing a database its own. @default 'public' */
  schema?: string;
}

/** The store in PostgreSQL, for many processes: every change locks its row. */
export class PostgresReferenceStore extends SqlReferenceStore {
  /** A connection string (pesakit's pool, ended on `close()`) or your `pg.Pool` (left open). */
  static async open(
    connection: string | pg.Pool,
    options: PostgresReferenceStoreOptions = {},
  ): Promise<PostgresReferenceStore> {
    const { schema, maxConnections } = checkOptions(connection, options);
    const owned = typeof connection === 'string';
    const pool = owned
      ? new pg.Pool({ connectionString: connection, max: maxConnections })
      : connection;
    // An idle connection the server drops emits 'error' on the pool: unhandled, a crash.
    if (owned) pool.on('error', () => {});
    guardPool(pool);
    const root = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
    const db = root.withSchema(schema);
    const release = async () => {
      unguardPool(pool);
      if (owned) await root.destroy();
    };
    try {
      await migrateToLatest(db as Kysely<unknown>, { dialect: 'postgres', schema });
    } catch (error) {
      await release();
      throw storeFailure('open', error);
    }
    return new PostgresReferenceStore(db, 'postgres', release, options);
  }
}

/** Connections of a pool pesakit makes: 25 processes fit PostgreSQL's default 100. */
export const defaultMaxConnections = 4;

/** PostgreSQL silently truncates a longer identifier. */
const maxIdentifierBytes = 63;

/** Checked before anything connects: a pool of 0 would wait forever. */
function checkOptions(
  connection: unknown,
  options: PostgresReferenceStoreOptions,
): { schema: string; maxConnections: number } {
  // Duck-typed: another copy of pg makes a Pool of another class.
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
  const { schema = 'public', maxConnections = defaultMaxConnections } = options ?? {};
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
