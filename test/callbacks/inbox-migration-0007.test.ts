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

// Migration 0007 adds the partial index on the inbox's finish time that prune() reads through.
// A database made by the schema before it, with entries finished, failed and still waiting,
// must migrate on open, and its old finished entries must be prunable like new ones.

const dir = mkdtempSync(join(tmpdir(), 'pesakit-inbox-0007-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const finishedIndex = 'pesakit_callback_inbox_finished_idx';

/** Applies the migrations up to 0006 only, as a store of the previous release left it. */
async function migrateTo0006(db: Kysely<unknown>, dialect: SqlDialectName): Promise<void> {
  const migrator = storeMigrator(db, dialect);
  const { error } = await migrator.migrateTo('0006_inbox_without_reference_index');
  expect(error).toBeUndefined();
}

/** Three entries as the 0006 schema's writes left them: done, dead, and still pending. */
async function storeOldEntries(db: Kysely<unknown>, instant: (iso: string) => unknown) {
  const rows = [
    ['01OLDDONE00000000000000000', 'OLDDONE', 'done', 'paid', '2026-10-01T10:00:00.000Z'],
    ['01OLDDEAD00000000000000000', 'OLDDEAD', 'dead', 'dead', '2026-10-01T11:00:00.000Z'],
    ['01OLDWAIT00000000000000000', 'OLDWAIT', 'pending', null, null],
  ] as const;
  for (const [id, reference, status, outcome, processedAt] of rows) {
    const old = callback(reference);
    const at = instant('2026-10-01T09:00:00.000Z');
    await sql`insert into pesakit_callback_inbox
      (id, dedup_key, method, url, headers, body, claim, payment_reference, status, duplicates,
       attempts, due_at, received_at, outcome, processed_at)
      values (${id}, ${old.dedupKey}, 'POST', ${old.url}, ${JSON.stringify(old.headers)},
        ${old.body}, ${JSON.stringify(old.claim)}, ${reference}, ${status}, 0, 1, ${at}, ${at},
        ${outcome}, ${processedAt === null ? null : instant(processedAt)})`.execute(db);
  }
}

/** After the migration: the old finished entries are pruned, the waiting one kept. */
async function expectOldEntriesPrunable(store: ReferenceStore): Promise<void> {
  expect(await store.inbox.prune({ olderThan: new Date('2026-10-01T10:30:00.000Z') })).toEqual({
    deleted: 1,
  });
  expect(await store.inbox.prune({ olderThan: new Date('2026-11-01T00:00:00.000Z') })).toEqual({
    deleted: 1,
  });
  const left = await store.inbox.list();
  expect(left.map((entry) => [entry.claim.paymentReference, entry.status])).toEqual([
    ['OLDWAIT', 'pending'],
  ]);
  // Dedup still holds against what is left, and a pruned callback is new again.
  expect((await store.inbox.append(callback('OLDWAIT'))).duplicate).toBe(true);
  expect((await store.inbox.append(callback('OLDDONE'))).duplicate).toBe(false);
}

describe('migration 0007_inbox_finished_index', () => {
  it('SQLite: a file made at 0006 migrates on open, and its finished entries can be pruned', async () => {
    const file = join(dir, 'at-0006.sqlite');
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) });
    await migrateTo0006(old, 'sqlite');
    await storeOldEntries(old, (iso) => iso);
    const indexes = () =>
      new Database(file, { readonly: true })
        .prepare(
          "select name from sqlite_master where type = 'index' and tbl_name = 'pesakit_callback_inbox'",
        )
        .all()
        .map((row) => (row as { name: string }).name);
    expect(indexes()).not.toContain(finishedIndex);
    await old.destroy();

    const store = await SqliteReferenceStore.open(file);
    try {
      expect(indexes()).toContain(finishedIndex);
      await expectOldEntriesPrunable(store);
    } finally {
      await store.close();
    }
  });

  it('PostgreSQL: a database made at 0006 migrates on open, and its finished entries can be pruned', async () => {
    const database = await createTestDatabase('inbox_0007');
    try {
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      const old = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
      await migrateTo0006(old, 'postgres');
      await storeOldEntries(old, (iso) => new Date(iso));
      const indexes = async (schema = 'public') => {
        const client = new pg.Client(database.url);
        await client.connect();
        try {
          const result = await client.query(
            "select indexname from pg_indexes where schemaname = $1 and tablename = 'pesakit_callback_inbox'",
            [schema],
          );
          return result.rows.map((row: { indexname: string }) => row.indexname);
        } finally {
          await client.end();
        }
      };
      expect(await indexes()).not.toContain(finishedIndex);
      await old.destroy();

      const store = await PostgresReferenceStore.open(database.url, { maxConnections: 2 });
      try {
        expect(await indexes()).toContain(finishedIndex);
        await expectOldEntriesPrunable(store);
      } finally {
        await store.close();
      }
      // A store scoped to its own schema gets its own index there.
      const scoped = await PostgresReferenceStore.open(database.url, {
        schema: 'scoped',
        maxConnections: 2,
      });
      await scoped.close();
      expect(await indexes('scoped')).toContain(finishedIndex);
    } finally {
      await database.drop();
    }
  });
});
