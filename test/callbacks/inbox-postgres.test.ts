import { describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { callback, describeCallbackInbox } from './inbox-conformance.js';

let database: TestDatabase | undefined;
let schemas = 0;

describeCallbackInbox('PostgreSQL', {
  open: async ({ now }) => {
    database ??= await createTestDatabase('inbox');
    schemas += 1;
    return PostgresReferenceStore.open(database.url, {
      now,
      schema: `inbox_${schemas}`,
      maxConnections: 4,
    });
  },
  dispose: async () => {
    await database?.drop();
  },
});

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
