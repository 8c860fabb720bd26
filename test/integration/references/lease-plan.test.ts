import Database from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../../src/references/postgres-store.js';
import { parseLeaseDue } from '../../../src/references/schedule/input-rules.js';
import { leaseDueRows } from '../../../src/references/sql/schedule.js';
import type { StoreDatabase } from '../../../src/references/sql/table.js';
import { SqliteReferenceStore } from '../../../src/references/sqlite-store.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { temporarySqliteFiles } from '../../helpers/sqlite-file-store.js';

/**
 * The lease reads the `due` index (check_due_at, merchant_reference) in its own order and stops
 * after its page: no sort, no scan by status. Its cost then follows the page, not the backlog
 * (measured in bench/reconciler.mjs at 1,000,000 records). Here the engines' own plans for the
 * statement the store sends, over a store with records due, records not yet due and finals.
 */
const RECORDS = 5_000;
const file = temporarySqliteFiles('lease-plan');
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('lease_plan');
});
afterAll(() => database?.drop());

/** What the lease of a page of 200 sends: the UPDATE, with its parameters. */
async function leaseStatement(db: Kysely<StoreDatabase>, dialect: 'sqlite' | 'postgres') {
  const options = parseLeaseDue({ limit: 200, leaseMs: 60_000, observations: false });
  await leaseDueRows(db, dialect, options, new Date());
  const update = sent.find((query) => /^update/i.test(query.sql));
  if (!update) throw new Error(`the lease sent no UPDATE: ${sent.map((q) => q.sql).join('; ')}`);
  return update;
}
const sent: CompiledQuery[] = [];
const log = (event: { query: CompiledQuery }) => {
  sent.push(event.query);
};

/** Copies of one open record: a third due, a third due next week, a third final. */
const copies = (g: string, dialect: 'sqlite' | 'postgres') => {
  const week = dialect === 'postgres' ? "now() + interval '7 days'" : "'2999-01-01T00:00:00.000Z'";
  return {
    merchant_reference: `'P-' || ${g}`,
    status: `case when ${g} % 3 = 2 then 'success' else 'pending' end`,
    next_check_at: `case when ${g} % 3 = 1 then ${week} else null end`,
  };
};

describe('the lease is read from its index, in its order', () => {
  it('SQLite: one range of the due index, no temporary b-tree for the order', async () => {
    const path = file();
    const store = await SqliteReferenceStore.open(path);
    await store.records.create({
      merchantReference: 'P-0',
      product: 'collection',
      flow: 'mno',
      amount: 10,
    });
    await store.close();
    const raw = new Database(path);
    const columns = (
      raw
        .prepare("select name from pragma_table_xinfo('pesakit_transactions') where hidden = 0")
        .all() as { name: string }[]
    ).map((c) => c.name);
    const override = copies('value', 'sqlite') as Record<string, string>;
    raw.exec(
      `with recursive s(value) as (select 1 union all select value + 1 from s where value < ${RECORDS}) insert into pesakit_transactions (${columns.join(', ')}) select ${columns.map((c) => override[c] ?? `t.${c}`).join(', ')} from pesakit_transactions t, s`,
    );
    sent.length = 0;
    const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: raw }), log });
    const { sql, parameters } = await leaseStatement(db, 'sqlite');
    const plan = (
      raw.prepare(`explain query plan ${sql}`).all(...(parameters as unknown[])) as {
        detail: string;
      }[]
    ).map((row) => row.detail);
    raw.close();
    expect(plan.join('\n')).toMatch(
      /USING (COVERING )?INDEX pesakit_transactions_due_idx \(check_due_at<\?\)/,
    );
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('PostgreSQL: an index scan of the due index under LockRows and Limit, no Sort', async () => {
    const store = await PostgresReferenceStore.open(database.url, { schema: 'plan' });
    await store.records.create({
      merchantReference: 'P-0',
      product: 'collection',
      flow: 'mno',
      amount: 10,
    });
    await store.close();
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      const { rows } = await pool.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_schema = 'plan' and table_name = 'pesakit_transactions' and is_generated = 'NEVER'",
      );
      const columns = rows.map((row) => row.column_name);
      const override = copies('g', 'postgres') as Record<string, string>;
      await pool.query(
        `insert into plan.pesakit_transactions (${columns.join(', ')}) select ${columns.map((c) => override[c] ?? `t.${c}`).join(', ')} from plan.pesakit_transactions t, generate_series(1, ${RECORDS}) g; analyze plan.pesakit_transactions`,
      );
      sent.length = 0;
      const root = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }), log });
      const { sql, parameters } = await leaseStatement(root.withSchema('plan'), 'postgres');
      const explained = await pool.query<{ 'QUERY PLAN': string }>(
        `explain ${sql}`,
        parameters as unknown[],
      );
      const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toMatch(
        /Limit[\s\S]*LockRows[\s\S]*Index Scan using pesakit_transactions_due_idx/,
      );
      expect(plan).toMatch(/Index Cond: \(check_due_at <= /);
      expect(plan).not.toMatch(/Sort/);
    } finally {
      await pool.end();
    }
  });
});
