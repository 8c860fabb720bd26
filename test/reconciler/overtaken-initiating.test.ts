import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import type { RecordMove, ReferenceStore } from '../../src/references/types.js';
import { moves } from '../helpers/moves.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { startProxy } from './helpers.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

/** A callback settles the record after the reconciler leased it, before its first move. */
function callbackFirstStore(): ReferenceStore {
  const store = new MemoryReferenceStore();
  const raced = async (merchantReference: string, move: RecordMove) => {
    if (move.change?.status === 'unknown' && move.expected === 'initiating') {
      await moves(store).transition(merchantReference, 'success', {
        reason: 'callback verified by pull',
      });
    }
    return store.records.move(merchantReference, move);
  };
  return { ...store, records: { ...store.records, move: raced }, close: () => store.close() };
}

describe('a stale write-ahead the callback settled while the reconciler held it', () => {
  it('is already final: no pull, no second settlement, the callback’s status stands', async () => {
    const store = callbackFirstStore();
    await store.records.create({
      merchantReference: 'stale-1',
      product: 'collection',
      flow: 'mno',
      amount: 1_000,
      msisdn: '255754123456',
    });
    const proxy = await startProxy(harness.url);
    try {
      // Every request the reconciler sends passes the proxy, which counts them.
      const pesakit = harness.client({ store, baseUrl: proxy.url });
      const reconciler = pesakit.createReconciler({ initiatingGraceMs: 0 });
      const settled: string[] = [];
      reconciler.on('settled', (record) => settled.push(record.merchantReference));
      const summary = await reconciler.runOnce({ force: true });
      expect(summary).toMatchObject({ checked: 1, settled: 0, failed: 0, review: 0, errors: 0 });
      expect(settled).toEqual([]);
      expect(proxy.requests.map((request) => request.path)).toEqual([]);
      expect(await store.records.get('stale-1')).toMatchObject({
        status: 'success',
        statusReason: 'callback verified by pull',
      });
      await reconciler.close();
    } finally {
      await proxy.close();
    }
  });
});
