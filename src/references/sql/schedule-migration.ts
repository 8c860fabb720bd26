import { type Kysely, type Migration, sql } from 'kysely';
import type { CheckLogTable } from './schedule-table.js';
import type { SqlDialectName } from './table.js';

/** Records whose logs move per statement (bounds one statement's size). */
const carryChunk = 200;

interface MigratingDatabase {
  pesakit_transactions: {
    merchant_reference: string;
    check_log: string | null;
    check_log_seq: number;
  };
  pesakit_check_log: CheckLogTable;
}

/**
 * `0005_reconciler_check_log`: the check log leaves the record's row. Until now each check
 * appended its observation to a JSON array in `pesakit_transactions.check_log`, so every
 * release (and every lease) rewrote up to 20 full platform answers with the row — on SQLite
 * the whole row, overflow pages and all, into the WAL. Now each observation is one row of
 * `pesakit_check_log (merchant_reference, seq)`, appended by the release and never rewritten;
 * the record keeps only the sequence number of its latest entry (`check_log_seq`).
 *
 * Existing logs are carried forward element by element, each element's own text kept (on
 * PostgreSQL exactly as written; SQLite's logs were already minified by its JSON functions),
 * and the old column is emptied, not dropped, so an older pesakit opening the file still
 * finds it.
 */
export function reconcilerCheckLogMigration(dialect: SqlDialectName): Migration {
  return {
    async up(untyped: Kysely<unknown>) {
      const db = untyped as Kysely<MigratingDatabase>;
      await db.schema
        .createTable('pesakit_check_log')
        .addColumn('merchant_reference', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('observation', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('pesakit_check_log_pkey', ['merchant_reference', 'seq'])
        .execute();
      await db.schema
        .alterTable('pesakit_transactions')
        .addColumn('check_log_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await carryLogsForward(db, dialect);
    },
  };
}

async function carryLogsForward(db: Kysely<MigratingDatabase>, dialect: SqlDialectName) {
  for (let after = ''; ; ) {
    const rows = await db
      .selectFrom('pesakit_transactions')
      .select(['merchant_reference', 'check_log'])
      .where('check_log', 'is not', null)
      .where('merchant_reference', '>', after)
      .orderBy('merchant_reference')
      .limit(carryChunk)
      .execute();
    if (rows.length === 0) return;
    // The logs of the chunk as one JSON array of [reference, log] (each log spliced in as it
    // is), split by the database into one row per element with its position and its own text.
    const pairs = `[${rows
      .map((row) => `[${JSON.stringify(row.merchant_reference)},${row.check_log as string}]`)
      .join(',')}]`;
    const elements =
      dialect === 'postgres'
        ? await sql<{ reference: string; seq: number; observation: string }>`
            select pair->>0 as reference, cast(element.position as integer) as seq,
                   element.value::text as observation
            from json_array_elements(cast(${pairs} as json)) as pair,
                 json_array_elements(pair->1) with ordinality as element(value, position)`.execute(
            db,
          )
        : await sql<{ reference: string; seq: number; observation: string }>`
            select pair.value->>0 as reference, element.key + 1 as seq,
                   (pair.value->1)->(element.key) as observation
            from json_each(${pairs}) as pair, json_each(pair.value->1) as element`.execute(db);
    const counts = new Map<string, number>();
    for (const { reference, seq } of elements.rows) {
      counts.set(reference, Math.max(counts.get(reference) ?? 0, Number(seq)));
    }
    for (let start = 0; start < elements.rows.length; start += carryChunk) {
      await db
        .insertInto('pesakit_check_log')
        .values(
          elements.rows.slice(start, start + carryChunk).map((element) => ({
            merchant_reference: element.reference,
            seq: Number(element.seq),
            observation: element.observation,
          })),
        )
        .execute();
    }
    for (const row of rows) {
      await db
        .updateTable('pesakit_transactions')
        .set({ check_log: null, check_log_seq: counts.get(row.merchant_reference) ?? 0 })
        .where('merchant_reference', '=', row.merchant_reference)
        .execute();
    }
    after = (rows.at(-1) as { merchant_reference: string }).merchant_reference;
  }
}
