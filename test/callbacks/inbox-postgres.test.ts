import { describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { callback } from '../../src/testing/fixtures.js';
import { createTestDatabase } from '../helpers/postgres.js';

// The inbox's rules on PostgreSQL go through pesakit/testing with the store's other parts
// (test/integration/references/postgres-store.test.ts); these are PostgreSQL's own.
describe('PostgreSQL inbox across processes sharing one database', () => {
  it('concurrent workers never claim the same entry; concurrent appends dedup to one row', async () => {
    const shared = await createTestDatabase('inbox_shared');
    const stores = await Promise.all(
      Array.from({ length: 4 }, () =>
        PostgresReferenceStore.open(shared.url, { maxConnections: 3 }),
      ),
    );
    try {
      const references = Array.from({ length: 60 }, (_, index) => `P${index}`);
      // Every callback delivered once to each of the four stores, all at once.
      const appended = await Promise.all(
        references.flatMap((reference) =>
          stores.map((store) => store.inbox.append(callback(reference))),
        ),
      );
      expect(appended.filter((result) => !result.duplicate)).toHaveLength(references.length);
      const claimed: string[] = [];
      for (let round = 0; round < 10 && claimed.length < references.length; round += 1) {
        const batches = await Promise.all(
          stores.map((store) => store.inbox.claim({ leaseMs: 60_000, limit: 7 })),
        );
        claimed.push(...batches.flat().map((claim) => claim.entry.id));
      }
      expect(claimed).toHaveLength(references.length);
      expect(new Set(claimed).size).toBe(references.length);
      const entries = await stores[0]!.inbox.list({ limit: 1000 });
      expect(entries.every((entry) => entry.duplicates === 3 && entry.attempts === 1)).toBe(true);
    } finally {
      for (const store of stores) await store.close();
      await shared.drop();
    }
  });
});

describe('the PostgreSQL inbox: concurrent appends', () => {
  it('equal callbacks appended together are one entry, and a refused row fails alone', async () => {
    const shared = await createTestDatabase('inbox_group');
    const store = await PostgresReferenceStore.open(shared.url, { maxConnections: 2 });
    const { Client } = await import('pg');
    const admin = new Client({ connectionString: shared.url });
    await admin.connect();
    try {
      await admin.query(`create function refuse_bad() returns trigger language plpgsql as $$
        begin
          if new.payment_reference = 'BAD' then raise exception 'refused by a trigger'; end if;
          return new;
        end $$`);
      await admin.query(`create trigger refuse_bad before insert on pesakit_callback_inbox
        for each row execute function refuse_bad()`);
      // All in one turn of the event loop.
      const results = await Promise.allSettled([
        store.inbox.append(callback('A')),
        store.inbox.append(callback('B')),
        store.inbox.append(callback('A')),
        store.inbox.append(callback('BAD')),
        store.inbox.append(callback('A')),
      ]);
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      const values = results.map((result) =>
        result.status === 'fulfilled' ? result.value : undefined,
      );
      expect(values.map((value) => value?.duplicate)).toEqual([
        false,
        false,
        true,
        undefined,
        true,
      ]);
      expect(values[2]?.entry.id).toBe(values[0]?.entry.id);
      const stored = await store.inbox.list();
      expect(stored.map((entry) => entry.claim.paymentReference)).toEqual(['A', 'B']);
      expect(stored[0]?.duplicates).toBe(2);
      // What append answered for a new entry is what is stored.
      expect(await store.inbox.get(values[1]?.entry.id as string)).toEqual(values[1]?.entry);
      // Each answer came after its row was committed: another connection sees both.
      const { rows } = await admin.query('select count(*)::int as n from pesakit_callback_inbox');
      expect(rows[0].n).toBe(2);
    } finally {
      await admin.end();
      await store.close();
      await shared.drop();
    }
  });
});
