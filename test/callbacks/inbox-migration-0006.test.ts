import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { storeMigrator } from '../../src/references/sql/migrations.js';
import type { SqlDialectName } from '../../src/references/sql/table.js';
import type { ReferenceStore } from '../../src/references/types.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { callback } from './inbox-conformance.js';

// Migration 0006 drops the inbox's payment_reference index (no query reads by it). A database
// made by the schema before it, with callbacks already stored, must keep them and keep
// deduplicating new deliveries against them.

const dir = mkdtempSync(join(tmpdir(), 'pesakit-inbox-0006-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const referenceIndex = 'pesakit_callback_inbox_reference_idx';

/** Applies the migrations up to 0004 only, as a store of the previous release left it. */
async function migrateTo0004(db: Kysely<unknown>, dialect: SqlDialectName): Promise<void> {
  const migrator = storeMigrator(db, dialect);
  const { error } = await migrator.migrateTo('0004_reconciler_schedule');
  expect(error).toBeUndefined();
}

/** One stored callback, written as the 0003 schema's insert did. */
async function storeOldCallback(db: Kysely<unknown>, at: string | Date): Promise<void> {
  const old = callback('OLD1');
  await sql`insert into pesakit_callback_inbox
    (id, dedup_key, method, url, headers, body, claim, payment_reference, status, duplicates,
     attempts, due_at, received_at)
    values ('01OLDENTRY0000000000000000', ${old.dedupKey}, 'POST', ${old.url},
      ${JSON.stringify(old.headers)}, ${old.body}, ${JSON.stringify(old.claim)}, 'OLD1',
      'pending', 0, 0, ${at}, ${at})`.execute(db);
}

/** After the migration: the old row deduplicates a redelivery, and new callbacks still store. */
async function expectDedupAgainstOldRows(store: ReferenceStore): Promise<void> {
  const again = await store.inbox.append(callback('OLD1'));
  expect(again.duplicate).toBe(true);
  expect(again.entry).toMatchObject({
    id: '01OLDENTRY0000000000000000',
    duplicates: 1,
    claim: { paymentReference: 'OLD1', status: 'success' },
  });
  const fresh = await store.inbox.append(callback('NEW1'));
  expect(fresh.duplicate).toBe(false);
  const twice = await Promise.all([
    store.inbox.append(callback('NEW2')),
    store.inbox.append(callback('NEW2')),
  ]);
  expect(twice.map((result) => result.duplicate).sort()).toEqual([false, true]);
  const stored = await store.inbox.list();
  expect(stored.map((entry) => entry.claim.paymentReference).sort()).toEqual([
    'NEW1',
    'NEW2',
    'OLD1',
  ]);
}

describe('migration 0006_inbox_without_reference_index', () => {
  it('SQLite: a file made at 0004 with callbacks stored keeps them and dedups against them', async () => {
    const file = join(dir, 'at-0004.sqlite');
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) });
    await migrateTo0004(old, 'sqlite');
    await storeOldCallback(old, '2026-11-01T10:00:00.000Z');
    const indexes = () =>
      new Database(file, { readonly: true })
        .prepare(
          "select name from sqlite_master where type = 'index' and tbl_name = 'pesakit_callback_inbox'",
        )
        .all()
        .map((row) => (row as { name: string }).name);
    expect(indexes()).toContain(referenceIndex);
    await old.destroy();

    const store = await SqliteReferenceStore.open(file);
    try {
      expect(indexes()).not.toContain(referenceIndex);
      // Dedup is still the unique constraint's, which stays.
      expect(indexes()).toContain('sqlite_autoindex_pesakit_callback_inbox_2');
      await expectDedupAgainstOldRows(store);
    } finally {
      await store.close();
    }
  });

  it('PostgreSQL: a database made at 0004 with callbacks stored keeps them and dedups against them', async () => {
    const database = await createTestDatabase('inbox_0006');
    try {
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      const old = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
      await migrateTo0004(old, 'postgres');
      await storeOldCallback(old, new Date('2026-11-01T10:00:00.000Z'));
      const indexes = async () => {
        const client = new pg.Client(database.url);
        await client.connect();
        try {
          const result = await client.query(
            "select indexname from pg_indexes where tablename = 'pesakit_callback_inbox'",
          );
          return result.rows.map((row: { indexname: string }) => row.indexname);
        } finally {
          await client.end();
        }
      };
      expect(await indexes()).toContain(referenceIndex);
      await old.destroy();

      const store = await PostgresReferenceStore.open(database.url, { maxConnections: 2 });
      try {
        expect(await indexes()).not.toContain(referenceIndex);
        expect(await indexes()).toContain('pesakit_callback_inbox_dedup_key_key');
        await expectDedupAgainstOldRows(store);
      } finally {
        await store.close();
      }
      // A store scoped to its own schema drops its own index, not public's (which is gone).
      const scoped = await PostgresReferenceStore.open(database.url, {
        schema: 'scoped',
        maxConnections: 2,
      });
      await scoped.close();
      const client = new pg.Client(database.url);
      await client.connect();
      try {
        const inScoped = await client.query(
          "select indexname from pg_indexes where schemaname = 'scoped' and tablename = 'pesakit_callback_inbox'",
        );
        const names = inScoped.rows.map((row: { indexname: string }) => row.indexname);
        expect(names).toContain('pesakit_callback_inbox_due_idx');
        expect(names).not.toContain(referenceIndex);
      } finally {
        await client.end();
      }
    } finally {
      await database.drop();
    }
  });
});
