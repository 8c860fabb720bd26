import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { clientThrough, sandboxBehindProxy } from './helpers.js';

/**
 * A worker that held records longer than their lease allows before their checks started would
 * pull records another worker may lease and pull meanwhile. A page is one round of checks
 * (`concurrency`), so a record is leased when a check slot is free for it: here the clock is
 * the test's (only `Date` is faked: timers and sockets are real), each status pull moves it
 * 400 ms, and with a 1 s lease a page of `batchSize` 3 would leave its third record past its
 * margin. (A page whose margin runs out mid-page is test/reconciler/due-records.test.ts's.)
 */
/** Milliseconds the fake clock moves per status pull: the platform "takes" this long. */
const pullMs = 400;

const sandbox = sandboxBehindProxy((request) => {
  if (request.path.includes('transaction/status')) vi.setSystemTime(Date.now() + pullMs);
  return undefined;
});
afterEach(() => {
  vi.useRealTimers();
});

/** Status pulls at the platform's door, by control number. */
function pullsByControlNumber(): Map<string, number> {
  const pulls = new Map<string, number>();
  for (const request of sandbox.proxy.requests) {
    if (!request.path.includes('transaction/status')) continue;
    const refId = (JSON.parse(request.body) as { ref_id: string }).ref_id;
    pulls.set(refId, (pulls.get(refId) ?? 0) + 1);
  }
  return pulls;
}

describe('pages of one round of checks: no record waits in a page past its lease margin', () => {
  it('each record is leased as a check slot frees, pulled once, none handed back', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const store = new MemoryReferenceStore();
    const limits: number[] = [];
    const lease = store.schedule.lease.bind(store.schedule);
    store.schedule.lease = (options) => {
      limits.push(options.limit);
      return lease(options);
    };
    const pesakit = clientThrough(sandbox.proxy, store, { maxRetries: 0 });
    const controlNumbers = new Map<string, string>();
    for (let i = 1; i <= 6; i += 1) {
      const reference = `exp-${i}`;
      const { controlNumber } = await pesakit.collection.initiateMno(
        { amount: 1_000 + i, msisdn: '255754123456' },
        { merchantReference: reference },
      );
      controlNumbers.set(reference, controlNumber);
    }
    await pesakit.collection.login(); // the pass's pulls are then the only requests
    vi.setSystemTime(Date.now() + 60_000);
    sandbox.proxy.requests.length = 0;

    const reconciler = pesakit.createReconciler({
      concurrency: 1,
      ratePerSecond: 10_000,
      batchSize: 3,
      leaseMs: 1_000, // the last 250 ms of each lease start no check
      schedules: { pending: [1, 3_600_000], unknown: [1, 3_600_000] },
      jitter: 0,
    });
    const first = await reconciler.runOnce();

    // Six pages of one record (and one that finds nothing), each leased as its check starts.
    expect(limits).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const pulls = pullsByControlNumber();
    const pulledTwice = [...controlNumbers].filter(([, cn]) => (pulls.get(cn) ?? 0) > 1);
    expect(pulledTwice).toEqual([]);
    const pulled = [...controlNumbers].filter(([, cn]) => pulls.has(cn)).map(([ref]) => ref);
    expect(pulled).toEqual(['exp-1', 'exp-2', 'exp-3', 'exp-4', 'exp-5', 'exp-6']);
    expect(first).toMatchObject({ checked: 6, pending: 6, errors: 0, leaseExpired: 0 });
    for (const reference of controlNumbers.keys()) {
      expect(await store.records.get(reference)).toMatchObject({ checkCount: 1 });
    }

    // Nothing is left due: the next pass pulls nothing.
    const second = await reconciler.runOnce();
    expect(second).toMatchObject({ checked: 0, leaseExpired: 0 });
    expect(
      sandbox.proxy.requests.filter((r) => r.path.includes('transaction/status')),
    ).toHaveLength(6);
    await reconciler.close();
  });
});
