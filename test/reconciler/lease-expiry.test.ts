import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { clientThrough, sandboxBehindProxy } from './helpers.js';

/**
 * Issue #8, the many-workers run at a load average of 12: a worker whose page was handed out
 * slower than its lease allowed still started checks on it, so a record whose lease had run out
 * was pulled, and — its release not yet written — leased again and pulled a second time. Here
 * the clock is the test's (only `Date` is faked: timers and sockets are real), and each status
 * pull moves it 400 ms, so a 1 s lease runs out mid-page exactly the same way on any machine.
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

describe('a record whose lease runs out before its check starts', () => {
  it('is not pulled: dropped from the page, counted, handed back, and checked by the next pass — never pulled twice', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const store = new MemoryReferenceStore();
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

    // Page 1 (exp-1..3) leased at 0 ms: exp-1 pulled at 0, exp-2 at 400; exp-3's turn comes at
    // 800, past 750: dropped. Page 2 (exp-4..6, leased ahead at 800): exp-4 at 800, exp-5 at
    // 1 200; exp-6 at 1 600, past 1 550: dropped. Page 3 (leased at 1 600) holds exp-3 again,
    // handed back: pulled at 1 600, once. Before the fix every record was pulled when its turn
    // came, and exp-6 — pulled at 2 000, its lease over since 1 800 — was in page 3 as well
    // (leased anew: its release was not written yet) and pulled a second time.
    const pulls = pullsByControlNumber();
    const pulledTwice = [...controlNumbers].filter(([, cn]) => (pulls.get(cn) ?? 0) > 1);
    expect(pulledTwice).toEqual([]);
    const pulled = [...controlNumbers].filter(([, cn]) => pulls.has(cn)).map(([ref]) => ref);
    expect(pulled).toEqual(['exp-1', 'exp-2', 'exp-3', 'exp-4', 'exp-5']);
    expect(first).toMatchObject({ checked: 5, pending: 5, errors: 0, leaseExpired: 2 });
    // exp-6 was handed back as due, not counted as checked, and no longer leased.
    expect(await store.get('exp-6')).toMatchObject({ checkCount: 0, lastCheckedAt: null });
    expect(await store.get('exp-3')).toMatchObject({ checkCount: 1 });

    // The next pass checks it.
    const second = await reconciler.runOnce();
    expect(second).toMatchObject({ checked: 1, leaseExpired: 0 });
    expect(pullsByControlNumber().get(controlNumbers.get('exp-6') as string)).toBe(1);
    await reconciler.close();
  });
});
