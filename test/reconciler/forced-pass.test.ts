import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { MemoryReferenceStore, type ReferenceStore } from '../../src/references/index.js';
import type { LeaseDueOptions } from '../../src/references/schedule/types.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { moves } from '../helpers/moves.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { type CountingProxy, startProxy } from './helpers.js';

let harness: Harness;
let proxy: CountingProxy | undefined;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** What a pass asked of the store: every lease call and every record it handed out. */
interface LeaseLog {
  calls: number;
  leased: string[];
}

/** The store, counting its leases; past `limit` calls it aborts the pass (a spin fails, not hangs). */
function countingLeases(store: ReferenceStore, stop: AbortController, limit: number) {
  const log: LeaseLog = { calls: 0, leased: [] };
  const lease = async (options: LeaseDueOptions) => {
    log.calls += 1;
    if (log.calls >= limit) stop.abort();
    const page = await store.schedule.lease(options);
    for (const leased of page) log.leased.push(leased.record.merchantReference);
    return page;
  };
  const counted: ReferenceStore = {
    ...store,
    schedule: { ...store.schedule, lease },
    close: () => store.close(),
  };
  return { store: counted, log };
}

const page = 5;
const dueCount = 12; // more than two pages
const freshCount = 15; // three full pages of records still inside their grace

async function fill(store: ReferenceStore) {
  const pesakit = harness.client({ store });
  for (let i = 0; i < dueCount; i += 1) {
    await pesakit.collection.initiateMno(
      { amount: 1_000 + i, msisdn: '255754123456' },
      { merchantReference: `due-${String(i).padStart(2, '0')}` },
    );
  }
  // Written ahead and (as far as the reconciler can tell) being sent right now. They sort
  // before the due ones (`a…` < `due-…`, all never scheduled).
  for (let i = 0; i < freshCount; i += 1) {
    await store.records.create({
      merchantReference: `a-fresh-${String(i).padStart(2, '0')}`,
      product: 'collection',
      flow: 'mno',
      amount: 2_000 + i,
      msisdn: '255754123456',
    });
  }
}

const stores: [string, () => Promise<{ store: ReferenceStore; cleanup: () => Promise<void> }>][] = [
  ['memory', async () => ({ store: new MemoryReferenceStore(), cleanup: async () => {} })],
  [
    'sqlite',
    async () => {
      const file = join(tmpdir(), `pesakit-forced-${process.pid}-${Date.now()}.sqlite`);
      const store = await SqliteReferenceStore.open(file);
      return {
        store,
        cleanup: async () => {
          await store.close();
          await rm(file, { force: true });
          await rm(`${file}-wal`, { force: true });
          await rm(`${file}-shm`, { force: true });
        },
      };
    },
  ],
];

describe.each(stores)('%s: a forced pass with initiating records inside their grace', (_, open) => {
  it('ends, checks each due record once, and leaves the fresh ones alone without spinning', async () => {
    const { store, cleanup } = await open();
    try {
      await fill(store);
      proxy = await startProxy(harness.url);
      const stop = new AbortController();
      // Every record fits in ceil(27 / 5) = 6 pages (+1 to find the end); a spin leases far more.
      const { store: counted, log } = countingLeases(store, stop, 50);
      const pesakit = new Pesakit({
        environment: 'sandbox',
        baseUrl: proxy.url,
        credentials: accounts,
        store: counted,
        maxRetries: 0,
      });
      const reconciler = pesakit.createReconciler({
        batchSize: page,
        initiatingGraceMs: 600_000,
      });
      const summary = await reconciler.runOnce({ force: true, signal: stop.signal });
      await reconciler.close();

      expect(stop.signal.aborted, `the pass leased ${log.calls} pages`).toBe(false);
      expect(log.calls).toBeLessThanOrEqual(Math.ceil((dueCount + freshCount) / page) + 1);
      expect(summary).toMatchObject({ checked: dueCount, errors: 0 });
      // Each due record pulled once at the platform's door; no fresh record leased twice.
      const pulls = proxy.requests.filter((request) => request.path.includes('transaction/status'));
      expect(pulls).toHaveLength(dueCount);
      const due = log.leased.filter((reference) => reference.startsWith('due-'));
      expect(due.sort()).toEqual(
        Array.from({ length: dueCount }, (_, i) => `due-${String(i).padStart(2, '0')}`),
      );
      const fresh = log.leased.filter((reference) => reference.startsWith('a-fresh-'));
      expect(new Set(fresh).size).toBe(fresh.length);
      // The fresh records are untouched: still initiating, never counted as checked.
      for (let i = 0; i < freshCount; i += 1) {
        const record = await store.records.get(`a-fresh-${String(i).padStart(2, '0')}`);
        expect(record).toMatchObject({ status: 'initiating', checkCount: 0, lastCheckedAt: null });
      }
    } finally {
      await cleanup();
    }
  });
});

describe.each(stores)('%s: a forced pass over records that wait without a pull', (_, open) => {
  it('looks at each once and ends, though none of them is counted as checked', async () => {
    const { store, cleanup } = await open();
    try {
      // Lost answers with no platform reference: within the no-reference window each check
      // decides "pending" without a request, so nothing marks the record checked in this pass.
      const waiting = 3 * page + 2;
      const { transition } = moves(store);
      for (let i = 0; i < waiting; i += 1) {
        const merchantReference = `lost-${String(i).padStart(2, '0')}`;
        await store.records.create({
          merchantReference,
          product: 'collection',
          flow: 'mno',
          amount: 3_000 + i,
          msisdn: '255754123456',
        });
        await transition(merchantReference, 'unknown');
      }
      const stop = new AbortController();
      const { store: counted, log } = countingLeases(store, stop, 50);
      const pesakit = harness.client({ store: counted });
      const reconciler = pesakit.createReconciler({
        batchSize: page,
        concurrency: page,
        initiatingGraceMs: 0,
      });
      const summary = await reconciler.runOnce({ force: true, signal: stop.signal });
      // Handed back at the pass's end, due when their window closes: not due yet.
      const again = await reconciler.runOnce();
      await reconciler.close();

      expect(stop.signal.aborted, `the pass leased ${log.calls} pages`).toBe(false);
      expect(summary).toMatchObject({ checked: waiting, pending: waiting, errors: 0 });
      expect([...log.leased].sort()).toEqual(
        Array.from({ length: waiting }, (_, i) => `lost-${String(i).padStart(2, '0')}`),
      );
      expect(again.checked).toBe(0);
      const record = await store.records.get('lost-00');
      expect(record).toMatchObject({ status: 'unknown', checkCount: 0 });
    } finally {
      await cleanup();
    }
  });
});
