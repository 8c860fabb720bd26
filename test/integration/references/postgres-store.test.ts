import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConfigurationError } from '../../../src/errors/configuration-error.js';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { failure } from '../../helpers/failure.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { describeStoreConformance } from '../../helpers/verify-store-cases.js';

let database: TestDatabase | undefined;
let schemas = 0;

// Each case's database is a schema of its own; another handle opens the same schema.
describeStoreConformance('PostgreSQL', {
  open: async ({ fresh, now }) => {
    database ??= await createTestDatabase('conformance');
    if (fresh) schemas += 1;
    return PostgresReferenceStore.open(database.url, {
      now,
      schema: `store_${schemas}`,
      maxConnections: 2,
    });
  },
});
afterAll(async () => {
  await database?.drop();
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
    await a.records.create({
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

  it('refuses a schema made by a pre-release build, naming it; another schema opens as new', async () => {
    const client = new pg.Client(database.url);
    await client.connect();
    try {
      // A schema as a build before 0.1.0 left it: its migrations recorded in kysely's table.
      await client.query(`create schema old_build;
        create table old_build.pesakit_migration (name varchar(255) primary key, timestamp varchar(255));
        insert into old_build.pesakit_migration values ('0001_pesakit_transactions', '2026-01-01'),
          ('0005_reconciler_check_log', '2026-01-01');`);
      const error = await failure(
        PostgresReferenceStore.open(database.url, { schema: 'old_build' }),
      );
      expect(isConfigurationError(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /PostgreSQL schema "old_build" .* pre-release build of pesakit \(before 0\.1\.0\).*drop the schema/,
      );
      const { rows } = await client.query('select name from old_build.pesakit_migration');
      expect(rows).toHaveLength(2);
      const fresh = await PostgresReferenceStore.open(database.url, { schema: 'new_build' });
      await fresh.close();
    } finally {
      await client.end();
    }
  });

  it("refuses a schema whose fingerprint is another build's, naming it and both fingerprints", async () => {
    const made = await PostgresReferenceStore.open(database.url, { schema: 'other_build' });
    await made.close();
    const client = new pg.Client(database.url);
    await client.connect();
    try {
      await client.query(`update other_build.pesakit_schema set fingerprint = '0123456789abcdef'`);
      const error = await failure(
        PostgresReferenceStore.open(database.url, { schema: 'other_build' }),
      );
      expect(isConfigurationError(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /PostgreSQL schema "other_build" .* another build of pesakit, whose schema differs \(fingerprint 0123456789abcdef, this build's [0-9a-f]{16}\).*drop the schema/,
      );
      const { rows } = await client.query('select fingerprint from other_build.pesakit_schema');
      expect(rows).toEqual([{ fingerprint: '0123456789abcdef' }]);
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
