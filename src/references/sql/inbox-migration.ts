import { type Kysely, type Migration, sql } from 'kysely';
import { inboxEntryStatuses } from '../inbox/types.js';
import type { SqlDialectName } from './table.js';

/** Migration `0003_callback_inbox`: the durable callback inbox (src/references/inbox). */
export function callbackInboxMigration(dialect: SqlDialectName): Migration {
  const instant = dialect === 'postgres' ? 'timestamptz' : 'text';
  const statusList = sql.join(inboxEntryStatuses.map((status) => sql.lit(status)));
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
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
        // The dedup: the same callback delivered again (or to another process) is one row.
        .addUniqueConstraint('pesakit_callback_inbox_dedup_key_key', ['dedup_key'])
        .addCheckConstraint('pesakit_callback_inbox_status_check', sql`status in (${statusList})`)
        .execute();
      // The workers' question: what is due, oldest first.
      await db.schema
        .createIndex('pesakit_callback_inbox_due_idx')
        .on('pesakit_callback_inbox')
        .columns(['status', 'due_at'])
        .execute();
      await db.schema
        .createIndex('pesakit_callback_inbox_reference_idx')
        .on('pesakit_callback_inbox')
        .column('payment_reference')
        .execute();
    },
  };
}

/**
 * Migration `0006_inbox_without_reference_index`: drops `pesakit_callback_inbox_reference_idx`.
 *
 * No query of the inbox reads by `payment_reference` (claims go by status and due time through
 * `pesakit_callback_inbox_due_idx`, entries by id, dedup by the unique `dedup_key`; records are
 * found in `pesakit_transactions`, whose own reference index is untouched). The index was pure
 * write cost on the acknowledgement path: every callback put its reference — a random key — in a
 * random leaf of that b-tree, a page of WAL written at the commit and again at the checkpoint.
 * The column stays (it is stored and read back as the claim's reference). Nothing to carry
 * forward: rows are untouched, and dedup still rests on the unique `dedup_key`.
 */
export function inboxReferenceIndexDropMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('pesakit_callback_inbox_reference_idx').ifExists().execute();
    },
  };
}

/**
 * Migration `0007_inbox_finished_index`: `pesakit_callback_inbox_finished_idx`, on `processed_at`
 * for the rows that have one (`done` and `dead` entries: `complete` and `deadLetter` set it, and
 * nothing clears it), so `inbox.prune()` finds the oldest finished entries without reading the
 * table. Partial, so the acknowledgement path pays nothing for it: a new callback's row has no
 * `processed_at` and is not in the index; it enters once, when the entry finishes, at the right
 * end (finish times grow). No column is added: `processed_at` is already the finish time, and
 * rows finished before this migration have it.
 */
export function inboxFinishedIndexMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('pesakit_callback_inbox_finished_idx')
        .on('pesakit_callback_inbox')
        .column('processed_at')
        .where(sql.ref('processed_at'), 'is not', null)
        .execute();
    },
  };
}
