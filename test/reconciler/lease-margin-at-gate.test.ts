import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { clientThrough, sandboxBehindProxy } from './helpers.js';

/**
 * A check takes its record while the lease has more than a quarter
 * left, but its request may then wait at the rate gate — behind a 429 whose Retry-After is
 * longer than that quarter — and leave after it, when another worker may hold the record.
 * The margin is checked again when the request leaves the gate. The 429 is the sandbox's own
 * (the `rateLimit` fault); only `Date` is faked, and the platform's first status answer moves
 * it past the margin (as a Retry-After of minutes would), so the case is the same on any machine.
 */
/** How far the clock moves at the first status pull: past the lease's margin. */
let jumpMs = 0;

const sandbox = sandboxBehindProxy((request) => {
  if (jumpMs > 0 && request.path.includes('transaction/status')) {
    vi.setSystemTime(Date.now() + jumpMs);
    jumpMs = 0;
  }
  return undefined;
});
afterEach(async () => {
  vi.useRealTimers();
  jumpMs = 0;
  await sandbox.harness.control('faults', { rateLimit: { next: 0 } });
});

const statusPulls = () =>
  sandbox.proxy.requests.filter((r) => r.path.includes('transaction/status'));

async function pendingCollections(store: MemoryReferenceStore, prefix: string, count: number) {
  const pesakit = clientThrough(sandbox.proxy, store);
  for (let i = 1; i <= count; i += 1) {
    await pesakit.collection.initiateMno(
      { amount: 1_000 + i, msisdn: '255754123456' },
      { merchantReference: `${prefix}-${i}` },
    );
  }
}

function reconcilerClient(store: MemoryReferenceStore, maxRetries?: number) {
  return clientThrough(sandbox.proxy, store, maxRetries === undefined ? {} : { maxRetries });
}

const schedules = { pending: [1, 3_600_000], unknown: [1, 3_600_000] };

describe('a request held at the rate gate past its lease margin', () => {
  it('is not sent when it leaves the gate: the record is counted leaseExpired, handed back, and pulled by the next pass', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const store = new MemoryReferenceStore();
    await pendingCollections(store, 'gate', 3);
    const pesakit = reconcilerClient(store, 0); // the 429 reaches the gate itself
    await pesakit.collection.login(); // the pass's requests are then only status pulls
    vi.setSystemTime(Date.now() + 60_000);
    sandbox.proxy.requests.length = 0;
    await sandbox.harness.control('faults', { rateLimit: { next: 1, retryAfterSeconds: 1 } });
    jumpMs = 16_000;

    const reconciler = pesakit.createReconciler({
      concurrency: 3,
      // One request per 2 s: the second and third checks' requests wait in the gate's queue.
      ratePerSecond: 0.5,
      leaseMs: 20_000, // no request leaves in the last 5 s: from 15 s after the lease
      schedules,
      jitter: 0,
    });
    const pauses: number[] = [];
    reconciler.on('paused', ({ ms }) => pauses.push(ms));
    const first = await reconciler.runOnce();
    await reconciler.close();

    // The first pull met the 429 (and the clock passed the margin of all three leases). Before
    // the fix it was tried again after the pause, and the two queued behind it went out too:
    // four requests at the door, three records pulled past their margin.
    expect(pauses).toEqual([1_000]);
    expect(statusPulls()).toHaveLength(1);
    expect(first).toMatchObject({ checked: 0, pending: 0, errors: 0, leaseExpired: 3 });
    for (const reference of ['gate-1', 'gate-2', 'gate-3']) {
      // Handed back: not counted as a check, free for the next lease at once.
      expect(await store.records.get(reference)).toMatchObject({
        checkCount: 0,
        lastCheckedAt: null,
      });
    }

    // The next pass (a fresh lease) pulls each of them once.
    const next = reconcilerClient(store, 0).createReconciler({
      concurrency: 3,
      ratePerSecond: 1_000,
      schedules,
      jitter: 0,
    });
    expect(await next.runOnce()).toMatchObject({ checked: 3, pending: 3, leaseExpired: 0 });
    await next.close();
    expect(statusPulls()).toHaveLength(4);
  });

  it("is not repeated once the 429's wait outlasts the margin, by the gate or the transport", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const store = new MemoryReferenceStore();
    await pendingCollections(store, 'retry', 1);
    const pesakit = reconcilerClient(store); // the transport retries safe calls (the default)
    await pesakit.collection.login();
    vi.setSystemTime(Date.now() + 60_000);
    sandbox.proxy.requests.length = 0;
    await sandbox.harness.control('faults', { rateLimit: { next: 1, retryAfterSeconds: 1 } });
    jumpMs = 16_000;
    const retries: number[] = [];
    pesakit.on('retry', (event) => retries.push(event.delayMs));

    const reconciler = pesakit.createReconciler({
      concurrency: 1,
      leaseMs: 20_000,
      schedules,
      jitter: 0,
    });
    const errors: unknown[] = [];
    reconciler.on('error', (error) => errors.push(error));
    const summary = await reconciler.runOnce();
    await reconciler.close();

    // The transport leaves the reconciler's 429 to the gate (its retry would take no token);
    // the gate, paused by it past the check's margin, sends no retry under this lease. The
    // record, handed back, is taken by the pass's next page under a fresh lease and pulled
    // once more: two requests at the door (the 429 and that pull), not three.
    expect(retries).toEqual([]);
    expect(statusPulls()).toHaveLength(2);
    expect(summary).toMatchObject({ checked: 1, errors: 0, leaseExpired: 1 });
    expect(errors).toEqual([]);
    expect(await store.records.get('retry-1')).toMatchObject({ checkCount: 1 });
  });

  it('a 429 shorter than the margin changes nothing: the request waits it out and is sent', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const store = new MemoryReferenceStore();
    await pendingCollections(store, 'short', 2);
    const pesakit = reconcilerClient(store, 0);
    await pesakit.collection.login();
    vi.setSystemTime(Date.now() + 60_000);
    sandbox.proxy.requests.length = 0;
    await sandbox.harness.control('faults', { rateLimit: { next: 1, retryAfterSeconds: 1 } });
    jumpMs = 1_000; // the Retry-After, well inside the 5 s margin

    const reconciler = pesakit.createReconciler({
      concurrency: 2,
      leaseMs: 20_000,
      schedules,
      jitter: 0,
    });
    const summary = await reconciler.runOnce();
    await reconciler.close();
    expect(summary).toMatchObject({ checked: 2, pending: 2, errors: 0, leaseExpired: 0 });
    expect(statusPulls()).toHaveLength(3); // the 429, its repeat, the other record
  });
});
