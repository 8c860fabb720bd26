import { createHash } from 'node:crypto';
import {
  DummyDriver,
  Kysely,
  type Migration,
  Migrator,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { inboxEntryStatuses } from '../inbox/types.js';
import { effectStatuses } from '../record.js';
import type { SqlDialectName } from './table.js';

/** Written out: an applied migration never changes meaning, so a new status is a new migration. */
export const schemaStatuses = [
  'initiating',
  'pending',
  'unknown',
  'success',
  'failed',
  'needs_review',
] as const;

/** The statuses a lease takes (the open ones), written out for the same reason. */
export const leaseStatuses = ['initiating', 'pending', 'unknown'] as const;

const initialSchema = '0001_initial_schema';

/** Inline so they ship in the bundle; a released one is never edited. Names sort in apply order. */
function storeMigrations(dialect: SqlDialectName): Record<string, Migration> {
  return { [initialSchema]: { up: (db) => createSchema(db, dialect) } };
}

/** A statement of the schema: run it, or compile it for the fingerprint. */
type SchemaStatement = { execute(): Promise<unknown>; compile(): { sql: string } };

async function createSchema(db: Kysely<unknown>, dialect: SqlDialectName): Promise<void> {
  for (const statement of schemaStatements(db, dialect)) await statement.execute();
  await db.schema
    .createTable(fingerprintTable)
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .execute();
  await (db as Kysely<FingerprintDatabase>)
    .insertInto(fingerprintTable)
    .values({ fingerprint: schemaFingerprint(dialect) })
    .execute();
}

/** The statements of schema 0001, in order. */
function schemaStatements(db: Kysely<unknown>, dialect: SqlDialectName): SchemaStatement[] {
  const statements: SchemaStatement[] = [];
  const instant = dialect === 'postgres' ? 'timestamptz' : 'text';
  const cents = dialect === 'postgres' ? 'bigint' : 'integer';
  const list = (values: readonly string[]) => sql.join(values.map((value) => sql.lit(value)));
  statements.push(
    db.schema
      .createTable('pesakit_transactions')
      .addColumn('merchant_reference', 'text', (c) => c.notNull())
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('flow', 'text', (c) => c.notNull())
      .addColumn('amount_cents', cents, (c) => c.notNull())
      .addColumn('msisdn', 'text')
      .addColumn('provider', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('status_reason', 'text')
      .addColumn('control_number', 'text')
      .addColumn('payment_reference', 'text')
      .addColumn('external_reference', 'text')
      .addColumn('txnid', 'text')
      .addColumn('refid', 'text')
      .addColumn('created_at', instant, (c) => c.notNull())
      .addColumn('updated_at', instant, (c) => c.notNull())
      .addColumn('attempted_at', instant)
      .addColumn('final_at', instant)
      .addColumn('last_checked_at', instant)
      .addColumn('check_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_payload', 'text')
      .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
      // The account the record was sent with (RecordAccount); NULL: written without one.
      .addColumn('account_environment', 'text', (c) =>
        c.check(sql`account_environment in ('sandbox', 'production')`),
      )
      .addColumn('account_login', 'text')
      .addColumn('review', 'text')
      .addColumn('resolution', 'text')
      .addColumn('effect_status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('none')
          .check(sql`effect_status in (${list(effectStatuses)})`),
      )
      .addColumn('effect_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('effect_due_at', instant)
      .addColumn('effect_last_error', 'text')
      .addColumn('effect_completed_at', instant)
      .addColumn('effect_lease_token', 'text')
      .addColumn('effect_lease_until', instant)
      .addColumn('next_check_at', instant)
      // The lease's order, kept by the engine: an open record's next check ('-infinity', first in
      // either engine, when it was never scheduled); NULL once the record is no longer open, so
      // the lease's index holds open records only and a page stops after its `limit` rows.
      .addColumn('check_due_at', instant, (c) =>
        c
          .generatedAlwaysAs(
            sql`case when status in (${list(leaseStatuses)}) then coalesce(next_check_at, '-infinity') end`,
          )
          .stored(),
      )
      .addColumn('lease_token', 'text')
      .addColumn('lease_expires_at', instant)
      .addColumn('check_log_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('float_account', 'text')
      .addColumn('float_cents', cents)
      .addPrimaryKeyConstraint('pesakit_transactions_pkey', ['merchant_reference'])
      // One owner per reference, enforced by the engine, across processes.
      .addUniqueConstraint('pesakit_transactions_control_number_key', ['control_number'])
      .addUniqueConstraint('pesakit_transactions_payment_reference_key', ['payment_reference'])
      .addUniqueConstraint('pesakit_transactions_external_reference_key', ['external_reference'])
      .addUniqueConstraint('pesakit_transactions_txnid_key', ['txnid'])
      .addUniqueConstraint('pesakit_transactions_refid_key', ['refid'])
      .addCheckConstraint(
        'pesakit_transactions_status_check',
        sql`status in (${list(schemaStatuses)})`,
      )
      .addCheckConstraint('pesakit_transactions_amount_check', sql`amount_cents > 0`)
      // Room on each page for a row's next version: a lease writes only unindexed columns (its
      // token and expiry), so PostgreSQL updates the row on its page (HOT), no index touched.
      .$call((table) =>
        dialect === 'postgres' ? table.modifyEnd(sql`with (fillfactor = 80)`) : table,
      ),
  );
  // `<table>_<what>_idx`: the names the released schema has.
  const index = (table: string, what: string, columns: string[]) =>
    statements.push(db.schema.createIndex(`${table}_${what}_idx`).on(table).columns(columns));
  index('pesakit_transactions', 'open', ['status', 'last_checked_at', 'created_at']);
  // The lease (schedule.ts) reads it in its own order and stops after a page.
  index('pesakit_transactions', 'due', ['check_due_at', 'merchant_reference']);
  index('pesakit_transactions', 'effect', ['effect_status', 'effect_due_at']);
  // The operations page's figures (operations-query.ts): finals per hour and status, each
  // operator's latest finals, counts by status and product, and pages in creation order, each
  // read from its index alone.
  index('pesakit_transactions', 'final', ['status', 'final_at', 'provider']);
  index('pesakit_transactions', 'operator', ['provider', 'final_at', 'status', 'created_at']);
  index('pesakit_transactions', 'listing', [
    'status',
    'product',
    'created_at',
    'merchant_reference',
  ]);
  statements.push(
    db.schema
      .createTable('pesakit_check_log')
      .addColumn('merchant_reference', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('observation', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('pesakit_check_log_pkey', ['merchant_reference', 'seq']),
  );
  statements.push(
    db.schema
      .createTable('pesakit_callback_inbox')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('dedup_key', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('headers', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('claim', 'text', (c) => c.notNull())
      .addColumn('payment_reference', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('duplicates', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('due_at', instant, (c) => c.notNull())
      .addColumn('lease_until', instant)
      .addColumn('lease_token', 'text')
      .addColumn('last_error', 'text')
      .addColumn('outcome', 'text')
      .addColumn('received_at', instant, (c) => c.notNull())
      .addColumn('processed_at', instant)
      .addPrimaryKeyConstraint('pesakit_callback_inbox_pkey', ['id'])
      .addUniqueConstraint('pesakit_callback_inbox_dedup_key_key', ['dedup_key'])
      .addCheckConstraint(
        'pesakit_callback_inbox_status_check',
        sql`status in (${list(inboxEntryStatuses)})`,
      ),
  );
  index('pesakit_callback_inbox', 'due', ['status', 'due_at']);
  // A record's evidence: the callbacks naming its payment reference.
  index('pesakit_callback_inbox', 'payment_reference', ['payment_reference']);
  // Bulk payouts' float per disbursement account: the last balance read, and what payouts held
  // (each holding payout's record names its account and cents) and settled since.
  statements.push(
    db.schema
      .createTable('pesakit_wallets')
      .addColumn('account', 'text', (c) => c.notNull())
      .addColumn('balance_cents', cents, (c) => c.notNull())
      .addColumn('held_cents', cents, (c) => c.notNull().defaultTo(0))
      .addColumn('settled_cents', cents, (c) => c.notNull().defaultTo(0))
      .addColumn('read_at', instant, (c) => c.notNull())
      .addPrimaryKeyConstraint('pesakit_wallets_pkey', ['account']),
  );
  // prune(): partial, so an acknowledgement pays nothing for it.
  statements.push(
    db.schema
      .createIndex('pesakit_callback_inbox_finished_idx')
      .on('pesakit_callback_inbox')
      .column('processed_at')
      .where(sql.ref('processed_at'), 'is not', null),
  );
  // One token bucket per merchant account, shared by every process (rate-limit/bucket.ts).
  statements.push(
    db.schema
      .createTable('pesakit_rate_limits')
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('full_at', instant, (c) => c.notNull())
      .addColumn('paused_until', instant)
      .addPrimaryKeyConstraint('pesakit_rate_limits_pkey', ['key']),
  );
  return statements;
}

const fingerprintTable = 'pesakit_schema';
type FingerprintDatabase = { pesakit_schema: { fingerprint: string } };

/**
 * A digest of the schema this build creates, compiled without a database: a store holding
 * another build's tables (nothing is released, so `0001` is edited in place) is refused by name
 * rather than read with the wrong columns.
 */
export function schemaFingerprint(dialect: SqlDialectName): string {
  let fingerprint = fingerprints.get(dialect);
  if (fingerprint === undefined) {
    fingerprint = compileFingerprint(dialect);
    fingerprints.set(dialect, fingerprint);
  }
  return fingerprint;
}

/** Compiled once per dialect per process: every store open compares against it. */
const fingerprints = new Map<SqlDialectName, string>();

function compileFingerprint(dialect: SqlDialectName): string {
  const compiler = new Kysely<unknown>({
    dialect: {
      createAdapter: () => (dialect === 'postgres' ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) =>
        dialect === 'postgres' ? new PostgresIntrospector(db) : new SqliteIntrospector(db),
      createQueryCompiler: () =>
        dialect === 'postgres' ? new PostgresQueryCompiler() : new SqliteQueryCompiler(),
    },
  });
  const text = schemaStatements(compiler, dialect)
    .map((statement) => statement.compile().sql)
    .join(';\n');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Where the store's tables are (a PostgreSQL schema, a SQLite file), as its errors name it. */
export interface StoreLocation {
  dialect: SqlDialectName;
  schema?: string | undefined;
  file?: string | undefined;
}

/** Concurrent openers wait on the migration lock; another build's tables are refused, never altered. */
export async function migrateToLatest(db: Kysely<unknown>, where: StoreLocation): Promise<void> {
  await refusePreRelease(db, where);
  const { dialect, schema } = where;
  const migrator = new Migrator({
    db,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
    provider: { getMigrations: async () => storeMigrations(dialect) },
    migrationTableName: 'pesakit_migration',
    migrationLockTableName: 'pesakit_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(
      `Could not migrate the reference store${failed ? ` (migration ${failed})` : ''}: ${String(error)}`,
      { cause: error },
    );
  }
  await refuseAnotherBuild(db, where);
}

async function refusePreRelease(db: Kysely<unknown>, where: StoreLocation): Promise<void> {
  if (!(await hasTable(db, where, 'pesakit_migration'))) return;
  const recorded = await (db as Kysely<{ pesakit_migration: { name: string } }>)
    .selectFrom('pesakit_migration')
    .select('name')
    .execute();
  if (recorded.every((row) => row.name === initialSchema)) return;
  throw refusal(where, 'a pre-release build of pesakit (before 0.1.0)');
}

/**
 * Checked once the migrator has finished (an opener racing the store's creator waits on its
 * lock), so the tables it compares are whole.
 */
async function refuseAnotherBuild(db: Kysely<unknown>, where: StoreLocation): Promise<void> {
  const fingerprint = await recordedFingerprint(db, where);
  const expected = schemaFingerprint(where.dialect);
  if (fingerprint === expected) return;
  throw refusal(
    where,
    `another build of pesakit, whose schema differs (fingerprint ${fingerprint ?? 'none'}, ` +
      `this build's ${expected})`,
  );
}

function refusal(where: StoreLocation, made: string): ConfigurationError {
  const [option, place, remedy] =
    where.dialect === 'postgres'
      ? [
          'schema',
          `The PostgreSQL schema "${where.schema ?? 'public'}"`,
          'drop the schema (or its pesakit_ tables)',
        ]
      : ['file', `The SQLite file ${where.file ?? '(in memory)'}`, 'delete the file'];
  return new ConfigurationError(
    option,
    `${place} holds a reference store made by ${made}, ` +
      `which this version cannot open: ${remedy} and open the store again to recreate it.`,
  );
}

async function hasTable(db: Kysely<unknown>, where: StoreLocation, name: string): Promise<boolean> {
  const found =
    where.dialect === 'postgres'
      ? sql`select 1 from information_schema.tables where table_schema = ${where.schema ?? 'public'} and table_name = ${name}`
      : sql`select 1 from sqlite_master where type = 'table' and name = ${name}`;
  return (await found.execute(db)).rows.length > 0;
}

/** The fingerprint the store's creator wrote; undefined when its build wrote none. */
async function recordedFingerprint(
  db: Kysely<unknown>,
  where: StoreLocation,
): Promise<string | undefined> {
  if (!(await hasTable(db, where, fingerprintTable))) return undefined;
  const row = await (db as Kysely<FingerprintDatabase>)
    .selectFrom(fingerprintTable)
    .select('fingerprint')
    .executeTakeFirst();
  return row?.fingerprint;
}
