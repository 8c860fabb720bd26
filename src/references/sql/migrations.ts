import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { effectStatuses } from '../effects.js';
import {
  callbackInboxMigration,
  inboxFinishedIndexMigration,
  inboxReferenceIndexDropMigration,
} from './inbox-migration.js';
import { reconcilerCheckLogMigration } from './schedule-migration.js';
import type { SqlDialectName } from './table.js';

/**
 * The store's schema, as versioned migrations applied on open. Migrations are inline (not
 * files) so they ship inside the bundle; a new version is a new entry, never an edit of an
 * applied one. Names sort in the order they apply.
 */
export function storeMigrations(dialect: SqlDialectName): Record<string, Migration> {
  return {
    '0001_pesakit_transactions': {
      async up(db: Kysely<unknown>) {
        await createTransactionsTable(db, dialect, 'pesakit_transactions', statusesV1);
        await createOpenIndex(db);
      },
    },
    '0002_review_and_effects': {
      async up(db: Kysely<unknown>) {
        await allowStatuses(db, dialect, statusesV2);
        const instant = instantType(dialect);
        const effectList = sql.join(effectStatuses.map((status) => sql.lit(status)));
        const table = 'pesakit_transactions';
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        await db.schema.alterTable(table).addColumn('review', 'text').execute();
        await db.schema.alterTable(table).addColumn('resolution', 'text').execute();
        await db.schema
          .alterTable(table)
          .addColumn('effect_status', 'text', (c) =>
            c.notNull().defaultTo('none').check(sql`effect_status in (${effectList})`),
          )
          .execute();
        await db.schema
          .alterTable(table)
          .addColumn('effect_attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable(table).addColumn('effect_due_at', instant).execute();
        await db.schema.alterTable(table).addColumn('effect_last_error', 'text').execute();
        await db.schema.alterTable(table).addColumn('effect_completed_at', instant).execute();
        await db.schema.alterTable(table).addColumn('effect_lease_token', 'text').execute();
        await db.schema.alterTable(table).addColumn('effect_lease_until', instant).execute();
        // The effect worker's question: what is due (or whose lease expired), oldest first.
        await db.schema
          .createIndex('pesakit_transactions_effect_idx')
          .on(table)
          .columns(['effect_status', 'effect_due_at'])
          .execute();
      },
    },
    '0003_callback_inbox': callbackInboxMigration(dialect),
    '0004_reconciler_schedule': {
      // The reconciler's schedule on the record: when it is next due (a pass selects only what
      // is due, through the index), and the lease (fencing token, expiry) of the worker
      // checking it. NULL next_check_at means due now (written before the reconciler saw it).
      async up(db: Kysely<unknown>) {
        const instant = instantType(dialect);
        for (const [column, type] of [
          ['next_check_at', instant],
          ['lease_token', 'text'],
          ['lease_expires_at', instant],
          ['check_log', 'text'],
        ] as const) {
          await db.schema.alterTable('pesakit_transactions').addColumn(column, type).execute();
        }
        await db.schema
          .createIndex('pesakit_transactions_due_idx')
          .on('pesakit_transactions')
          .columns(['status', 'next_check_at', 'merchant_reference'])
          .execute();
      },
    },
    '0005_reconciler_check_log': reconcilerCheckLogMigration(dialect),
    '0006_inbox_without_reference_index': inboxReferenceIndexDropMigration(),
    '0007_inbox_finished_index': inboxFinishedIndexMigration(),
  };
}

// Each version's statuses, frozen: an applied migration never changes meaning. A new status is
// a new migration (the check in transitions.test pins the latest list to `transactionStatuses`).
const statusesV1 = ['initiating', 'pending', 'unknown', 'success', 'failed'] as const;
export const latestStatuses = [...statusesV1, 'needs_review'] as const;
const statusesV2 = latestStatuses;

function instantType(dialect: SqlDialectName) {
  return dialect === 'postgres' ? 'timestamptz' : 'text';
}

async function createTransactionsTable(
  db: Kysely<unknown>,
  dialect: SqlDialectName,
  name: string,
  statuses: readonly string[],
): Promise<void> {
  const instant = instantType(dialect);
  const cents = dialect === 'postgres' ? 'bigint' : 'integer';
  const statusList = sql.join(statuses.map((status) => sql.lit(status)));
  await db.schema
    .createTable(name)
    .addColumn('merchant_reference', 'text', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('amount_cents', cents, (c) => c.notNull())
    .addColumn('msisdn', 'text')
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
    .addColumn('last_checked_at', instant)
    .addColumn('check_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_payload', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addPrimaryKeyConstraint('pesakit_transactions_pkey', ['merchant_reference'])
    // One owner per reference, enforced by the engine (NULLs do not collide): this is
    // what makes dedup hold across processes sharing one database.
    .addUniqueConstraint('pesakit_transactions_control_number_key', ['control_number'])
    .addUniqueConstraint('pesakit_transactions_payment_reference_key', ['payment_reference'])
    .addUniqueConstraint('pesakit_transactions_external_reference_key', ['external_reference'])
    .addUniqueConstraint('pesakit_transactions_txnid_key', ['txnid'])
    .addUniqueConstraint('pesakit_transactions_refid_key', ['refid'])
    .addCheckConstraint('pesakit_transactions_status_check', sql`status in (${statusList})`)
    .addCheckConstraint('pesakit_transactions_amount_check', sql`amount_cents > 0`)
    .execute();
}

/** The reconciler's question: open records, least recently checked first. */
async function createOpenIndex(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('pesakit_transactions_open_idx')
    .on('pesakit_transactions')
    .columns(['status', 'last_checked_at', 'created_at'])
    .execute();
}

/**
 * Widens the status check to `statuses`. PostgreSQL swaps the constraint; SQLite cannot alter a
 * constraint, so the table is rebuilt with the same columns and data (inside the migration's
 * transaction, so a failure leaves the old table as it was).
 */
async function allowStatuses(
  db: Kysely<unknown>,
  dialect: SqlDialectName,
  statuses: readonly string[],
): Promise<void> {
  const statusList = sql.join(statuses.map((status) => sql.lit(status)));
  if (dialect === 'postgres') {
    await db.schema
      .alterTable('pesakit_transactions')
      .dropConstraint('pesakit_transactions_status_check')
      .execute();
    await db.schema
      .alterTable('pesakit_transactions')
      .addCheckConstraint('pesakit_transactions_status_check', sql`status in (${statusList})`)
      .execute();
    return;
  }
  await createTransactionsTable(db, dialect, 'pesakit_transactions_rebuilt', statuses);
  await sql`insert into pesakit_transactions_rebuilt select * from pesakit_transactions`.execute(
    db,
  );
  await db.schema.dropTable('pesakit_transactions').execute();
  await db.schema
    .alterTable('pesakit_transactions_rebuilt')
    .renameTo('pesakit_transactions')
    .execute();
  await createOpenIndex(db);
}

/**
 * The store's migrator: its migrations and its bookkeeping tables (in `schema` on PostgreSQL).
 * Tests use it to leave a database at an older version, as a previous release did.
 */
export function storeMigrator(
  db: Kysely<unknown>,
  dialect: SqlDialectName,
  schema?: string,
): Migrator {
  return new Migrator({
    db,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
    provider: { getMigrations: async () => storeMigrations(dialect) },
    migrationTableName: 'pesakit_migration',
    migrationLockTableName: 'pesakit_migration_lock',
  });
}

/**
 * Brings the tables to the latest version; concurrent openers wait on the migration lock.
 * `schema` (PostgreSQL) must match the schema `db` was scoped to with `withSchema`.
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  dialect: SqlDialectName,
  schema?: string,
): Promise<void> {
  const { error, results } = await storeMigrator(db, dialect, schema).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(
      `Could not migrate the reference store${failed ? ` (migration ${failed})` : ''}: ${String(error)}`,
      { cause: error },
    );
  }
}
