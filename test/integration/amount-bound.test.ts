import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AMOUNT_TZS } from '../../src/schemas/amount.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

// Money stays exact end to end. `1e21` once came back from SQLite as
// 999999999999999900000; the bound keeps every amount an exact number of cents.

let harness: Harness;
beforeAll(async () => {
  // The sandbox's own per-request limit (10,000,000 by default) is raised to the SDK's bound.
  harness = await startHarness({ maxAmount: MAX_AMOUNT_TZS });
});
afterAll(() => harness.close());

describe('an amount at the bound round-trips exactly through the SQLite store', () => {
  it.each([MAX_AMOUNT_TZS, MAX_AMOUNT_TZS - 0.01, 0.01, 123_456_789.07])('%d', async (amount) => {
    const store = await SqliteReferenceStore.open(':memory:');
    try {
      const pesakit = harness.client({ store });
      const payment = await pesakit.collection.initiateMno({ amount, msisdn: '255754123456' });
      expect(payment.amount).toBe(amount);
      expect(payment.record.amount).toBe(amount);
      expect((await store.records.get(payment.merchantReference))?.amount).toBe(amount);
      const pulled = await pesakit.collection.status(payment.controlNumber);
      expect(pulled.data.amount).toBe(amount);
    } finally {
      await store.close();
    }
  });
});
