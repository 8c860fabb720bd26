import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReferenceStore } from '../../src/references/index.js';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import type { LeasedRecord } from '../../src/references/schedule/types.js';
import { storeMigrator } from '../../src/references/sql/migrations.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

// Migration 0005_reconciler_check_log moves each record's check log out of its row (a JSON
// array in pesakit_transactions.check_log) into pesakit_check_log, one row per observation.
// A store opened on a database left by the previous schema must read every log back exactly,
// keep appending after it, and still drop the oldest past 20.

/** Observations of every JSON kind, as an old release would have written them. */
const mixed: unknown[] = [
  { z: 1, a: { y: [1, 2, { b: null }], x: 'ünïcode "quoted" \\ \n' } },
  [1, 2, 3],
  'just text',
  null,
  12.5,
  true,
];
const twenty = Array.from({ length: 20 }, (_, i) => ({ check: i + 1 }));

async function seedOldSchema(db: Kysely<unknown>) {
  const row = (reference: string, log: string | null) =>
    sql`insert into pesakit_transactions
      (merchant_reference, product, flow, amount_cents, status, control_number, created_at,
       updated_at, check_count, metadata, check_log)
      values (${reference}, 'collection', 'mno', 500000, 'pending', ${`CN-${reference}`},
        '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 0, '{}', ${log})`.execute(db);
  await row('old-mixed', JSON.stringify(mixed));
  await row('old-full', JSON.stringify(twenty));
  await row('old-none', null);
}

async function checkCarriedForward(store: ReferenceStore) {
  const read = await store.readObservations('old-mixed');
  expect(read).toEqual(mixed);
  expect(JSON.stringify(read)).toBe(JSON.stringify(mixed));
  expect(await store.readObservations('old-full')).toEqual(twenty);
  expect(await store.readObservations('old-none')).toEqual([]);

  // A lease with the log reads the carried entries; the next release appends after them.
  const leases = await store.leaseDue({ limit: 10, leaseMs: 60_000, force: true });
  const byReference = new Map(leases.map((lease) => [lease.record.merchantReference, lease]));
  expect(byReference.get('old-mixed')?.observations).toEqual(mixed);
  expect(byReference.get('old-none')?.observations).toEqual([]);
  const release = (reference: string, observation: unknown) => ({
    merchantReference: reference,
    token: (byReference.get(reference) as LeasedRecord).token,
    nextCheckAt: new Date(),
    observation,
  });
  expect(
    await store.releaseLeases([
      release('old-mixed', { next: 7 }),
      release('old-full', { check: 21 }),
      release('old-none', { first: true }),
    ]),
  ).toEqual([true, true, true]);
  expect(await store.readObservations('old-mixed')).toEqual([...mixed, { next: 7 }]);
  // Twenty carried + one: the oldest goes.
  expect(await store.readObservations('old-full')).toEqual([...twenty.slice(1), { check: 21 }]);
  expect(await store.readObservations('old-none')).toEqual([{ first: true }]);
  expect((await store.get('old-full'))?.checkCount).toBe(1);
}

describe('migration 0005_reconciler_check_log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pesakit-check-log-'));
  let database: TestDatabase | undefined;
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('sqlite: a file at 0004 keeps every check log, exactly, and appends after it', async () => {
    const file = join(dir, 'at-0004.sqlite');
    const old = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new Database(file) }),
    });
    const migrator = storeMigrator(old, 'sqlite');
    expect((await migrator.migrateTo('0004_reconciler_schedule')).error).toBeUndefined();
    await seedOldSchema(old);
    await old.destroy();

    const store = await SqliteReferenceStore.open(file);
    try {
      await checkCarriedForward(store);
    } finally {
      await store.close();
    }
    // The old column is emptied (kept for an older pesakit reading the file), the log moved.
    const raw = new Database(file, { readonly: true });
    try {
      expect(
        raw
          .prepare('select count(*) as n from pesakit_transactions where check_log is not null')
          .get(),
      ).toEqual({ n: 0 });
      expect(
        raw
          .prepare(
            "select seq from pesakit_check_log where merchant_reference = 'old-full' order by seq",
          )
          .all(),
      ).toEqual(Array.from({ length: 20 }, (_, i) => ({ seq: i + 2 })));
    } finally {
      raw.close();
    }
  });

  it('postgres: a schema at 0004 keeps every check log, exactly, and appends after it', async () => {
    database = await createTestDatabase('check_log_migration');
    const schema = 'at_0004';
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const root = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    try {
      await sql`create schema ${sql.id(schema)}`.execute(root);
      const old = root.withSchema(schema);
      const migrator = storeMigrator(old, 'postgres', schema);
      expect((await migrator.migrateTo('0004_reconciler_schedule')).error).toBeUndefined();
      await root.connection().execute(async (connection) => {
        await sql`set search_path to ${sql.id(schema)}`.execute(connection);
        await seedOldSchema(connection);
        // An old PostgreSQL log kept each element's own text, spacing included.
        await sql`update pesakit_transactions set check_log = '[{"spaced" :  1},  2]'
          where merchant_reference = 'old-none'`.execute(connection);
      });
      const store = await PostgresReferenceStore.open(database.url, { schema, maxConnections: 2 });
      try {
        expect(await store.readObservations('old-none')).toEqual([{ spaced: 1 }, 2]);
        await root.connection().execute(async (connection) => {
          const { rows } = await sql<{ observation: string }>`select observation
            from ${sql.id(schema, 'pesakit_check_log')}
            where merchant_reference = 'old-none' order by seq`.execute(connection);
          expect(rows.map((row) => row.observation)).toEqual(['{"spaced" :  1}', '2']);
          await sql`delete from ${sql.id(schema, 'pesakit_check_log')}
            where merchant_reference = 'old-none'`.execute(connection);
          await sql`update ${sql.id(schema, 'pesakit_transactions')} set check_log_seq = 0
            where merchant_reference = 'old-none'`.execute(connection);
        });
        await checkCarriedForward(store);
      } finally {
        await store.close();
      }
    } finally {
      await root.destroy();
    }
  });
});
