import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReconcileSummary } from '../../src/reconciler/index.js';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { type CountingProxy, clientThrough, startProxy } from './helpers.js';

/**
 * The race the margin at the rate gate prevents, with two workers on one PostgreSQL store.
 * Worker A's first pull meets a 429 while the clock passes its lease (only `Date` is faked;
 * the platform's answer moves it, as a Retry-After of minutes would). During A's pause worker B
 * leases the records — A's leases are over — and pulls them. When A's pause ends, its request
 * must not go out: sent, the platform would be pulled twice for that record while both
 * workers' handlers raced (the writes stay single: fenced).
 */
let harness: Harness;
let database: TestDatabase;
let proxyA: CountingProxy;
let proxyB: CountingProxy;
let limitNext = false;
const stores: PostgresReferenceStore[] = [];

beforeAll(async () => {
  harness = await startHarness();
  database = await createTestDatabase('lease_margin');
  proxyA = await startProxy(harness.url, {
    intercept: (request) => {
      if (!limitNext || !request.path.includes('transaction/status')) return undefined;
      limitNext = false;
      vi.setSystemTime(Date.now() + 21_000); // past A's 20 s lease
      return {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { message: 'Too Many Attempts.' },
      };
    },
  });
  proxyB = await startProxy(harness.url);
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await proxyA?.close();
  await proxyB?.close();
  await harness?.close();
  await database?.drop();
});

async function worker(proxy: CountingProxy) {
  const store = await PostgresReferenceStore.open(database.url, {
    schema: 'margin',
    maxConnections: 3,
  });
  stores.push(store);
  const pesakit = clientThrough(proxy, store, { maxRetries: 0 });
  await pesakit.collection.login();
  return pesakit;
}

const pulls = (proxy: CountingProxy) =>
  proxy.requests
    .filter((request) => request.path.includes('transaction/status'))
    .map((request) => (JSON.parse(request.body) as { ref_id: string }).ref_id);

describe('two workers on PostgreSQL, a 429 longer than the lease margin', () => {
  it('the paused worker does not pull what the other has leased since: each record is pulled once', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const a = await worker(proxyA);
    const b = await worker(proxyB);
    const controlNumbers: string[] = [];
    for (let i = 1; i <= 3; i += 1) {
      const { controlNumber } = await b.collection.initiateMno(
        { amount: 3_000 + i, msisdn: '255754123456' },
        { merchantReference: `pg-margin-${i}` },
      );
      controlNumbers.push(controlNumber);
    }
    vi.setSystemTime(Date.now() + 60_000);
    proxyA.requests.length = 0;
    proxyB.requests.length = 0;

    const options = {
      leaseMs: 20_000,
      ratePerSecond: 1_000,
      schedules: { pending: [1, 3_600_000], unknown: [1, 3_600_000] },
      jitter: 0,
    };
    // A's page holds all three (a page is `concurrency` records); one request every 2 s, so the
    // second and third wait at A's gate behind the first.
    const reconcilerA = a.createReconciler({ ...options, concurrency: 3, ratePerSecond: 0.5 });
    const reconcilerB = b.createReconciler({ ...options, concurrency: 3 });
    // B runs its passes while A waits out the 429. A's fenced hand-back of the same records
    // locks their rows for an instant, and B's lease skips locked rows (SKIP LOCKED): a pass of
    // B that meets it finds nothing due, so B goes again until it has checked all three.
    const passesOfB = async (): Promise<ReconcileSummary> => {
      let summary = await reconcilerB.runOnce();
      for (let pass = 1; summary.checked < 3 && pass < 50; pass += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const next = await reconcilerB.runOnce();
        summary = {
          ...next,
          checked: summary.checked + next.checked,
          pending: summary.pending + next.pending,
          errors: summary.errors + next.errors,
        };
      }
      return summary;
    };
    let passB: Promise<ReconcileSummary> | undefined;
    reconcilerA.on('paused', () => {
      passB ??= passesOfB();
    });
    limitNext = true;
    const summaryA = await reconcilerA.runOnce();
    const summaryB = await passB;
    await reconcilerA.close();
    await reconcilerB.close();

    const seen = JSON.stringify({ summaryA, summaryB });
    // A asked once (answered 429 at its door, never forwarded) and never again.
    expect(pulls(proxyA), seen).toHaveLength(1);
    expect(summaryA).toMatchObject({ checked: 0, leaseExpired: 3, errors: 0 });
    // B pulled each record once; the platform saw each exactly once.
    expect(pulls(proxyB).sort(), seen).toEqual([...controlNumbers].sort());
    expect(summaryB).toMatchObject({ checked: 3, pending: 3, errors: 0 });
    // B's checks are on the records; A's fenced hand-backs wrote nothing over them.
    for (let i = 1; i <= 3; i += 1) {
      expect(await stores[1]!.records.get(`pg-margin-${i}`)).toMatchObject({ checkCount: 1 });
    }
  });
});
