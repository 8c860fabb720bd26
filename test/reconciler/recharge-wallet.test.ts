import { afterEach, describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import type { ReviewVerdict } from '../../src/references/review.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fund } from './helpers.js';

/**
 * Can the wallet balance decide a pending recharge? The spec gives a recharge no status
 * route and the wallet no field beyond its balance, and a wallet is "credited by a confirmed
 * recharge" — any recharge, also one made outside this store (the portal, another system on
 * the same account). Here two worlds on the real sandbox: in one the recharge is confirmed, in
 * the other it is never paid and the same amount arrives by another top-up. The reconciler
 * sees the same balances in both, so no wallet rule can tell them apart: both end in
 * needs_review with every balance seen, never `success` (docs/reconciler.md, the recharge).
 */
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function world(topUp: 'confirmed' | 'another top-up') {
  harness = await startHarness();
  const store = new MemoryReferenceStore();
  // Airtime credentials only: the recharge's control number cannot be pulled as a collection.
  const pesakit = harness.client({ store, credentials: { airtime: accounts.airtime } });
  await fund(harness, 'airtime', 1_000);
  const { controlNumber } = await pesakit.airtime.recharge(
    { amount: 50_000 },
    { merchantReference: 'recharge-w' },
  );
  const reconciler = pesakit.createReconciler({
    maxAttempts: 2,
    schedules: { pending: [1], unknown: [1] },
    jitter: 0,
  });
  const reviews: ReviewVerdict[] = [];
  reconciler.on('review', (_record, verdict) => reviews.push(verdict));
  const first = await reconciler.runOnce({ force: true });

  if (topUp === 'confirmed') {
    // The payment side confirms the recharge to the platform (not to the merchant).
    const response = await fetch(`${harness.url}/api/sandbox/airtime/callbackUrl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ controlNumber, status: true }),
    });
    expect(response.status).toBe(200);
  } else {
    await fund(harness, 'airtime', 50_000);
  }
  const second = await reconciler.runOnce({ force: true });
  await reconciler.close();
  const record = await store.records.get('recharge-w');
  const balances = (
    (reviews[0]?.evidence as { observations?: { wallet?: { balance?: number } }[] } | undefined)
      ?.observations ?? []
  ).map((observation) => observation.wallet?.balance);
  return { first, second, record, reviews, balances };
}

describe('a pending recharge and the wallet balance', () => {
  it('a rise by exactly its amount does not settle it: the same balances arise when it was never paid', async () => {
    const confirmed = await world('confirmed');
    const unpaid = await world('another top-up');

    // What the reconciler could see is the same in both worlds, balance for balance…
    expect(confirmed.balances).toEqual([1_000, 51_000]);
    expect(unpaid.balances).toEqual(confirmed.balances);
    // …so it decides the same in both: pending, then a person, never a guess.
    for (const { first, second, record, reviews } of [confirmed, unpaid]) {
      expect(first).toMatchObject({ checked: 1, pending: 1, settled: 0 });
      expect(second).toMatchObject({ checked: 1, review: 1, settled: 0 });
      expect(record?.status).toBe('needs_review');
      expect(reviews.map((verdict) => verdict.reason)).toEqual(['max_attempts']);
    }
  });
});
