import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { describeReferenceStore } from '../../helpers/reference-store-conformance.js';

let database: TestDatabase | undefined;
let schemas = 0;

describeReferenceStore('PostgreSQL', {
  open: async ({ now }) => {
    database ??= await createTestDatabase('conformance');
    schemas += 1;
    return PostgresReferenceStore.open(database.url, {
      now,
      schema: `store_${schemas}`,
      maxConnections: 2,
    });
  },
  reopen: async ({ now }) =>
    PostgresReferenceStore.open(database!.url, {
      now,
      schema: `store_${schemas}`,
      maxConnections: 2,
    }),
  dispose: async () => {
    await database?.drop();
  },
});

describe('PostgreSQL store schema', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('schema');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('stores instants as timestamptz and amounts as bigint cents, migrated once', async () => {
    // Two stores opening at once both wait on the migration lock; the schema is created once.
    const [a, b] = await Promise.all([
      PostgresReferenceStore.open(database.url),
      PostgresReferenceStore.open(database.url),
    ]);
    await a.createIntent({
      merchantReference: 'm-1',
      product: 'collection',
      flow: 'mno',
      amount: 0.3,
    });
    await Promise.all([a.close(), b.close()]);
    const client = new pg.Client(database.url);
    await client.connect();
    try {
      const types = await client.query(
        `select column_name, data_type from information_schema.columns
          where table_name = 'pesakit_transactions' and column_name in ('amount_cents', 'created_at')
          order by column_name`,
      );
      expect(types.rows).toEqual([
        { column_name: 'amount_cents', data_type: 'bigint' },
        { column_name: 'created_at', data_type: 'timestamp with time zone' },
      ]);
      const migrations = await client.query('select name from pesakit_migration');
      expect(migrations.rows.map((row) => row.name)).toEqual(['0001_initial_schema']);
      const amount = await client.query('select amount_cents from pesakit_transactions');
      expect(amount.rows).toEqual([{ amount_cents: '30' }]);
    } finally {
      await client.end();
    }
  });

  it('leaves a pool it was given open when closed', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const store = await PostgresReferenceStore.open(pool);
    await store.close();
    const result = await pool.query('select count(*)::int as n from pesakit_transactions');
    expect(result.rows).toEqual([{ n: 1 }]);
    await pool.end();
  });
});
