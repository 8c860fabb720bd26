import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../src/postgres.js';
import type { CallbackInbox } from '../../src/references/inbox/types.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { callback } from '../../src/testing/fixtures.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { TestClock } from '../helpers/test-clock.js';

// How the SQL inboxes prune: in statements of at most 500 rows each (so a big prune never holds
// the write lock, or many row locks, for long), found through the partial index on the finish
// time rather than by reading the table.

const finishedIndex = 'pesakit_callback_inbox_finished_idx';

async function finishMany(inbox: CallbackInbox, count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, (_, index) => inbox.append(callback(`M${index}`))),
  );
  for (;;) {
    const claims = await inbox.claim({ leaseMs: 60_000, limit: 1000 });
    if (claims.length === 0) return;
    await Promise.all(
      claims.map(({ entry, token }) =>
        inbox.finish(entry.id, token, { status: 'done', outcome: 'paid' }),
      ),
    );
  }
}

describe('SQLite inbox prune', () => {
  it('deletes in statements of at most 500 rows, selected through the finished index', async () => {
    const statements: string[] = [];
    const database = new Database(':memory:', {
      verbose: (statement) => statements.push(String(statement)),
    });
    const clock = new TestClock();
    const store = await SqliteReferenceStore.open(database, { now: clock.now });
    try {
      await finishMany(store.inbox, 1_050);
      clock.advance(60_000);
      statements.length = 0;
      expect(await store.inbox.prune({ olderThan: clock.now(), limit: 1_030 })).toEqual({
        deleted: 1_030,
      });
      const deletes = statements.filter((statement) => /^delete from/i.test(statement));
      // 500 + 500 + 30: three statements, each its own transaction (autocommit).
      expect(deletes).toHaveLength(3);
      expect(statements.some((statement) => /^begin/i.test(statement))).toBe(false);

      const [prune] = deletes;
      const select = /\((select .*)\)\s*$/is.exec(prune as string)?.[1];
      expect(select).toBeDefined();
      const plan = database
        // better-sqlite3's verbose log has the values in place of the parameters.
        .prepare(`explain query plan ${select}`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join('\n');
      expect(plan).toContain(finishedIndex);
      expect(plan).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL inbox prune', () => {
  it('deletes in statements of at most 500 rows, selected through the finished index', async () => {
    const shared = await createTestDatabase('inbox_prune');
    const clock = new TestClock();
    const store = await PostgresReferenceStore.open(shared.url, {
      now: clock.now,
      maxConnections: 2,
    });
    const admin = new pg.Client({ connectionString: shared.url });
    await admin.connect();
    try {
      await admin.query('create table prune_log (id serial primary key, deleted int not null)');
      await admin.query(`create function log_prune() returns trigger language plpgsql as $$
        begin
          insert into prune_log (deleted) select count(*) from old_rows;
          return null;
        end $$`);
      await admin.query(`create trigger log_prune after delete on pesakit_callback_inbox
        referencing old table as old_rows for each statement execute function log_prune()`);
      await finishMany(store.inbox, 1_050);
      clock.advance(60_000);
      // The selection can use the partial index (the table is small, so make a
      // plain scan unattractive).
      await admin.query('set enable_seqscan = off');
      await admin.query('analyze pesakit_callback_inbox');
      const plan = await admin.query(
        `explain select id from pesakit_callback_inbox
         where processed_at < $1 and status not in ('pending', 'processing')
         order by processed_at limit 500 for update skip locked`,
        [clock.now()],
      );
      const text = plan.rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
      expect(text).toContain(finishedIndex);
      expect(text).not.toMatch(/Sort/);
      await admin.query('reset enable_seqscan');
      expect(await store.inbox.prune({ olderThan: clock.now(), limit: 1_030 })).toEqual({
        deleted: 1_030,
      });
      const { rows } = await admin.query('select deleted from prune_log order by id');
      expect(rows.map((row: { deleted: number }) => row.deleted)).toEqual([500, 500, 30]);
    } finally {
      await admin.end();
      await store.close();
      await shared.drop();
    }
  });
});
