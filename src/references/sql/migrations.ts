import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { transactionStatuses } from '../transitions.js';
import { callbackInboxMigration } from './inbox-migration.js';
import type { SqlDialectName } from './table.js';

/**
 * The store's schema, as versioned migrations applied on open. Migrations are inline (not
 * files) so they ship inside the bundle; a new version is a new entry, never an edit of an
 * applied one. Names sort in the order they apply.
 */
function migrations(dialect: SqlDialectName): Record<string, Migration> {
  const instant = dialect === 'postgres' ? 'timestamptz' : 'text';
  const cents = dialect === 'postgres' ? 'bigint' : 'integer';
  const statusList = sql.join(transactionStatuses.map((status) => sql.lit(status)));
  return {
    '0001_pesakit_transactions': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('pesakit_transactions')
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
          .addUniqueConstraint('pesakit_transactions_external_reference_key', [
            'external_reference',
          ])
          .addUniqueConstraint('pesakit_transactions_txnid_key', ['txnid'])
          .addUniqueConstraint('pesakit_transactions_refid_key', ['refid'])
          .addCheckConstraint('pesakit_transactions_status_check', sql`status in (${statusList})`)
          .addCheckConstraint('pesakit_transactions_amount_check', sql`amount_cents > 0`)
          .execute();
        // The reconciler's question: open records, least recently checked first.
        await db.schema
          .createIndex('pesakit_transactions_open_idx')
          .on('pesakit_transactions')
          .columns(['status', 'last_checked_at', 'created_at'])
          .execute();
      },
    },
    '0003_callback_inbox': callbackInboxMigration(dialect),
  };
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
  const migrator = new Migrator({
    db,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
    provider: { getMigrations: async () => migrations(dialect) },
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
}
