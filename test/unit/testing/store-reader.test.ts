import { describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../../src/references/index.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { storeReader } from '../../../src/testing/store-reader.js';
import { moves } from '../../helpers/moves.js';

describe("the verifier's reader", () => {
  for (const [which, open] of [
    ['memory', async () => new MemoryReferenceStore()],
    ['SQLite', () => SqliteReferenceStore.open(':memory:')],
  ] as const) {
    it(`reads every record once, page after page, in every status (${which})`, async () => {
      const store = await open();
      // More than two pages, many records sharing an instant (ties broken by reference).
      const count = 2_345;
      for (let i = 0; i < count; i += 1) {
        const reference = `order-${String(i).padStart(5, '0')}`;
        await store.records.create({
          merchantReference: reference,
          product: 'collection',
          flow: 'mno',
          amount: 1000,
        });
        if (i % 3 === 1) await moves(store).transition(reference, 'pending');
        if (i % 3 === 2) await moves(store).transition(reference, 'failed', { reason: 'declined' });
      }
      const records = await storeReader(store).records();
      expect(records).toHaveLength(count);
      expect(new Set(records.map((record) => record.merchantReference)).size).toBe(count);
      expect(new Set(records.map((record) => record.status))).toEqual(
        new Set(['initiating', 'pending', 'failed']),
      );
      await store.close();
    });
  }
});
