import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import type { Reconciler, ReconcileSummary } from '../../src/reconciler/index.js';
import { MemoryReferenceStore, type ReferenceStore } from '../../src/references/index.js';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';
import { type CountingProxy, clientThrough, startProxy } from './helpers.js';

/**
 * The platform's rate limit is the merchant's, not one process's: every reconciler of an
 * account on one store takes its requests' tokens from one bucket in the store. Four workers,
 * each with its own store handle (as four processes have), at `ratePerSecond: 20`, pull many due
 * records from one sandbox; the status pulls are counted at the platform's door (a proxy in
 * front of the sandbox), by their arrival times, never by our own code's timings.
 */
const WORKERS = 4;
const RATE = 20;
/** Eight seconds of pulls at the rate: enough for several windows of a few seconds. */
const RECORDS = 160;
/** The bound of the shared limit: the rate, plus one batch of leased tokens (2 at 20/s). */
const LIMIT_PER_SECOND = 22;
const WINDOW_MS = 3_000;

let harness: Harness;
let database: TestDatabase;
const sqliteFile = temporarySqliteFiles('shared-rate');
const opened: ReferenceStore[] = [];

beforeAll(async () => {
  harness = await startHarness();
  database = await createTestDatabase('shared_rate');
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await harness?.close();
  await database?.drop();
});

const isStatusPull = (path: string) => path.includes('transaction/status');
const pullTimes = (proxy: CountingProxy) =>
  proxy.requests.filter((request) => isStatusPull(request.path)).map((request) => request.at);

/** The most pulls that arrived within any `windowMs` (each window starting at a pull). */
function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let end = 0;
  for (let start = 0; start < sorted.length; start += 1) {
    while (end < sorted.length && (sorted[end] as number) < (sorted[start] as number) + windowMs) {
      end += 1;
    }
    most = Math.max(most, end - start);
  }
  return most;
}

/** `count` pending collections at the sandbox, written to `store` as the SDK writes them. */
async function seed(store: ReferenceStore, prefix: string, count: number): Promise<void> {
  const pesakit = harness.client({ store });
  for (let i = 0; i < count; i += 1) {
    await pesakit.collection.initiateMno(
      { amount: 1_000 + i, msisdn: '255754123456' },
      { merchantReference: `${prefix}-${String(i).padStart(3, '0')}` },
    );
  }
}

/** A worker: its own client on its own store handle, logged in before the pulls are counted. */
async function worker(proxy: CountingProxy, store: ReferenceStore): Promise<Reconciler> {
  const pesakit: Pesakit = clientThrough(proxy, store);
  await pesakit.collection.login();
  return pesakit.createReconciler({
    ratePerSecond: RATE,
    concurrency: 8,
    // Small pages, so that every worker leases some of the due records.
    batchSize: 10,
    schedules: { pending: [1, 3_600_000], unknown: [1, 3_600_000] },
    jitter: 0,
  });
}

/** One pass of each worker at once, until every due record was checked. */
async function passes(workers: readonly Reconciler[]): Promise<ReconcileSummary[]> {
  const summaries = await Promise.all(workers.map((reconciler) => reconciler.runOnce()));
  await Promise.all(workers.map((reconciler) => reconciler.close()));
  return summaries;
}

const backends: Array<[string, () => Promise<ReferenceStore>]> = [
  [
    'SQLite (four handles on one file)',
    (() => {
      let file: string | undefined;
      return async () => {
        file ??= sqliteFile();
        return SqliteReferenceStore.open(file);
      };
    })(),
  ],
  [
    'PostgreSQL (four handles on one schema)',
    async () =>
      PostgresReferenceStore.open(database.url, { schema: 'shared_rate', maxConnections: 3 }),
  ],
];

describe.each(backends)('one rate limit for every worker: %s', (name, open) => {
  let stores: ReferenceStore[];
  beforeAll(async () => {
    stores = [];
    for (let i = 0; i < WORKERS; i += 1) stores.push(await open());
    opened.push(...stores);
  });

  it(`four workers at ratePerSecond ${RATE} send at most ${LIMIT_PER_SECOND} status pulls a second together`, async () => {
    const prefix = name.startsWith('SQLite') ? 'rate-sqlite' : 'rate-pg';
    await seed(stores[0] as ReferenceStore, prefix, RECORDS);
    const proxy = await startProxy(harness.url);
    try {
      const workers = await Promise.all(stores.map((store) => worker(proxy, store)));
      proxy.requests.length = 0;
      const summaries = await passes(workers);

      const times = pullTimes(proxy);
      // Every record pulled once, and by more than one worker: the limit was shared, not won
      // by one worker that leased everything.
      expect(times).toHaveLength(RECORDS);
      expect(summaries.reduce((sum, summary) => sum + summary.checked, 0)).toBe(RECORDS);
      expect(summaries.filter((summary) => summary.checked > 0).length).toBeGreaterThan(1);
      const spanMs = Math.max(...times) - Math.min(...times);
      const perSecond = (RECORDS * 1000) / spanMs;
      const busiest = busiestWindow(times, WINDOW_MS);
      const seen = `${RECORDS} pulls in ${spanMs} ms (${perSecond.toFixed(1)}/s); busiest ${WINDOW_MS} ms: ${busiest}`;
      expect(perSecond, seen).toBeLessThanOrEqual(LIMIT_PER_SECOND);
      expect(busiest, seen).toBeLessThanOrEqual((LIMIT_PER_SECOND * WINDOW_MS) / 1000);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('a 429 met by one worker pauses the others: nothing reaches the platform until its Retry-After is over', async () => {
    const prefix = name.startsWith('SQLite') ? 'pause-sqlite' : 'pause-pg';
    await seed(stores[0] as ReferenceStore, prefix, 80);
    // Worker 0 talks to the platform through a door of its own, which answers its third status
    // pull 429 with Retry-After: 3; the other three share another door.
    let limitedAt: number | undefined;
    let statusPulls = 0;
    const limitedDoor = await startProxy(harness.url, {
      intercept: (request) => {
        if (!isStatusPull(request.path) || ++statusPulls !== 3) return undefined;
        limitedAt = request.at;
        return {
          status: 429,
          headers: { 'retry-after': '3' },
          body: { message: 'Too Many Attempts.' },
        };
      },
    });
    const otherDoor = await startProxy(harness.url);
    try {
      const workers = await Promise.all(
        stores.map((store, index) => worker(index === 0 ? limitedDoor : otherDoor, store)),
      );
      const pauses = workers.map(() => [] as number[]);
      workers.forEach((reconciler, index) => {
        reconciler.on('paused', ({ ms }) => pauses[index]?.push(ms));
      });
      limitedDoor.requests.length = 0;
      otherDoor.requests.length = 0;
      await passes(workers);

      expect(limitedAt, 'the 429 was answered').toBeDefined();
      const at = limitedAt as number;
      const others = pullTimes(otherDoor);
      const seen = JSON.stringify({ others: others.map((time) => time - at), pauses });
      // Every worker was told: the one that met the 429 and the three that found the pause in
      // the store.
      expect(
        pauses.every((each) => each.length > 0),
        seen,
      ).toBe(true);
      // A worker learns of the pause at its next take from the store: within a batch's time
      // (a tenth of a second at 20/s), and pulls in flight then still arrive. From a little
      // after (time for a loaded machine), nothing until the three seconds are over.
      const during = others.filter((time) => time > at + 800 && time < at + 2_950);
      expect(during, seen).toEqual([]);
      // Then they went on: every record was pulled.
      expect(others.filter((time) => time >= at + 2_950).length, seen).toBeGreaterThan(0);
      const all = [...pullTimes(limitedDoor), ...others];
      // 80 records, and the pull answered 429 asked again (the transport's own retry).
      expect(all.length, seen).toBe(81);
    } finally {
      await limitedDoor.close();
      await otherDoor.close();
    }
  }, 120_000);
});

describe('without the shared limit, the same count fails', () => {
  it('four workers on four memory stores (four buckets, one a process) send more than 22 a second', async () => {
    const stores = Array.from({ length: WORKERS }, () => new MemoryReferenceStore());
    for (const [index, store] of stores.entries()) await seed(store, `apart-${index}`, 40);
    const proxy = await startProxy(harness.url);
    try {
      const workers = await Promise.all(stores.map((store) => worker(proxy, store)));
      proxy.requests.length = 0;
      await passes(workers);
      const times = pullTimes(proxy);
      expect(times).toHaveLength(160);
      expect(busiestWindow(times, 1_000)).toBeGreaterThan(LIMIT_PER_SECOND);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
