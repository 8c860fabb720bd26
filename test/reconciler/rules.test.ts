import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import {
  type ConfigurationError,
  isConfigurationError,
} from '../../src/errors/configuration-error.js';
import { isRequestValidationError } from '../../src/errors/request-validation-error.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { type CountingProxy, fund, lostAnswer, startProxy } from './helpers.js';

let harness: Harness;
let store: MemoryReferenceStore;
let proxy: CountingProxy | undefined;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});
beforeEach(() => {
  store = new MemoryReferenceStore();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

const through = (url: string) =>
  new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: accounts,
    store,
    maxRetries: 0,
  });
const isStatusPull = (path: string) => path.includes('transaction/status');

describe('the rate gate', () => {
  it('a 429 with Retry-After pauses every pull, then the pass finishes', async () => {
    const pesakit = harness.client({ store });
    for (let i = 0; i < 6; i += 1) {
      await pesakit.collection.initiateMno(
        { amount: 1_000 + i, msisdn: '255754123456' },
        { merchantReference: `rl-${i}` },
      );
    }
    let limited = 0;
    proxy = await startProxy(harness.url, {
      intercept: (request) =>
        isStatusPull(request.path) && limited++ === 0
          ? {
              status: 429,
              headers: { 'retry-after': '1' },
              body: { message: 'Too Many Attempts.' },
            }
          : undefined,
    });
    const reconciler = through(proxy.url).createReconciler({ concurrency: 1 });
    const pauses: number[] = [];
    reconciler.on('paused', ({ ms }) => pauses.push(ms));
    const summary = await reconciler.runOnce({ force: true });
    expect(summary).toMatchObject({ checked: 6, pending: 6, errors: 0 });
    expect(pauses).toEqual([1000]);
    const pulls = proxy.requests.filter((request) => isStatusPull(request.path));
    expect(pulls).toHaveLength(7);
    // Nothing was sent during the pause the platform asked for.
    const [first, second] = pulls;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    await reconciler.close();
  });

  it('with the transport retrying (the default), the first 429 pauses every pull, not only the one retried', async () => {
    const pesakit = harness.client({ store });
    for (let i = 0; i < 9; i += 1) {
      await pesakit.collection.initiateMno(
        { amount: 1_000 + i, msisdn: '255754123456' },
        { merchantReference: `rl-retry-${i}` },
      );
    }
    let limited = 0;
    proxy = await startProxy(harness.url, {
      intercept: (request) =>
        isStatusPull(request.path) && limited++ === 0
          ? {
              status: 429,
              headers: { 'retry-after': '1' },
              body: { message: 'Too Many Attempts.' },
            }
          : undefined,
    });
    // The client's own retries on (maxRetries 2): the transport waits out Retry-After and
    // sends the limited pull again itself.
    const client = new Pesakit({
      environment: 'sandbox',
      baseUrl: proxy.url,
      credentials: accounts,
      store,
    });
    const reconciler = client.createReconciler({ concurrency: 3 });
    const pauses: number[] = [];
    reconciler.on('paused', ({ ms }) => pauses.push(ms));
    const summary = await reconciler.runOnce({ force: true });
    expect(summary).toMatchObject({ checked: 9, pending: 9, errors: 0 });
    expect(pauses).toEqual([1000]);
    const pulls = proxy.requests.filter((request) => isStatusPull(request.path));
    expect(pulls).toHaveLength(10);
    // While the platform asked for a second's rest, only the pulls already on their way when
    // the 429 was answered may arrive (at most concurrency - 1 = 2). Without the pause, the two
    // other workers would have gone on pulling the rest of the records in that second.
    const limitedAt = pulls[0]!.at;
    const duringPause = pulls.filter((pull) => pull.at > limitedAt && pull.at < limitedAt + 950);
    expect(duringPause.length).toBeLessThanOrEqual(2);
    await reconciler.close();
  });

  it('caps requests per second across the pass', async () => {
    const pesakit = harness.client({ store });
    for (let i = 0; i < 5; i += 1) {
      await pesakit.collection.initiateMno(
        { amount: 1_000 + i, msisdn: '255754123456' },
        { merchantReference: `rps-${i}` },
      );
    }
    proxy = await startProxy(harness.url);
    const reconciler = through(proxy.url).createReconciler({ ratePerSecond: 2, concurrency: 8 });
    const passStarted = Date.now();
    await reconciler.runOnce({ force: true });
    const pulls = proxy.requests.filter((request) => isStatusPull(request.path));
    expect(pulls).toHaveLength(5);
    // 2 per second: the fifth cannot start before two full intervals after the pass began.
    // Measured from the pass's start, not from the first pull's arrival: a loaded machine can
    // only delay a pull, so this bound cannot be met early by noise (the first pull arriving
    // late made the gap between arrivals look shorter than the gate's).
    expect(pulls[4]!.at - passStarted).toBeGreaterThanOrEqual(1_950);
    await reconciler.close();
  });
});

describe('pages', () => {
  it('a pass over many pages checks every record once, and writes every check before it resolves', async () => {
    const pesakit = harness.client({ store });
    for (let i = 0; i < 10; i += 1) {
      await pesakit.collection.initiateMno(
        { amount: 1_000 + i, msisdn: '255754123456' },
        { merchantReference: `page-${String(i).padStart(2, '0')}` },
      );
    }
    // The pages leased, as the store hands them out.
    const pageSizes: number[] = [];
    const lease = store.schedule.lease.bind(store.schedule);
    store.schedule.lease = async (options) => {
      const page = await lease(options);
      pageSizes.push(page.length);
      return page;
    };
    proxy = await startProxy(harness.url);
    // A page is at most `concurrency` records and at most `batchSize`: here the smaller, 3.
    const reconciler = through(proxy.url).createReconciler({ batchSize: 3, concurrency: 4 });
    const summary = await reconciler.runOnce({ force: true });
    expect(summary).toMatchObject({ checked: 10, pending: 10, errors: 0 });
    expect(pageSizes).toEqual([3, 3, 3, 1]);
    const pulls = proxy.requests.filter((request) => isStatusPull(request.path));
    expect(new Set(pulls.map((request) => request.body)).size).toBe(10);
    expect(pulls).toHaveLength(10);
    // Every check written once the pass resolved: counted once, next due on the schedule.
    for (let i = 0; i < 10; i += 1) {
      expect((await store.records.get(`page-${String(i).padStart(2, '0')}`))?.checkCount).toBe(1);
    }
    expect(await store.schedule.lease({ limit: 20, leaseMs: 1_000 })).toEqual([]);
    await reconciler.close();
  });
});

describe('errors, close and options', () => {
  it('an upstream 5xx is an error, counted and retried on the schedule, the record untouched', async () => {
    const pesakit = harness.client({ store });
    await pesakit.collection.initiateMno(
      { amount: 1_000, msisdn: '255754123456' },
      { merchantReference: 'err-1' },
    );
    proxy = await startProxy(harness.url, {
      intercept: (request) =>
        isStatusPull(request.path) ? { status: 503, body: { message: 'down' } } : undefined,
    });
    const reconciler = through(proxy.url).createReconciler({ schedules: { pending: [1, 60_000] } });
    const errors: unknown[] = [];
    reconciler.on('error', (error) => errors.push(error));
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ checked: 1, errors: 1 });
    expect(errors).toHaveLength(1);
    expect(await store.records.get('err-1')).toMatchObject({ status: 'pending', checkCount: 1 });
    const [leased] = await store.schedule.lease({
      limit: 1,
      leaseMs: 1,
      force: true,
      passStartedAt: new Date(Date.now() + 1_000),
    });
    expect(leased?.observations).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ name: 'ServerError' }) }),
    ]);
    await reconciler.close();
  });

  it('bad options name the option and the rule', () => {
    const pesakit = harness.client({ store });
    let error: unknown;
    try {
      pesakit.createReconciler({ concurrency: 0, schedules: { pending: [] } });
    } catch (caught) {
      error = caught;
    }
    // The same error as a bad option of `new Pesakit()` or `createCallbackReceiver()`.
    expect(isConfigurationError(error)).toBe(true);
    expect((error as ConfigurationError).option).toBe('concurrency');
    expect(String(error)).toMatch(/concurrency must be at least 1/);
    expect(String(error)).toMatch(/schedules\.pending/);
    expect(String(error)).toMatch(/Nothing was started/);
    expect(isRequestValidationError(error)).toBe(false);
  });

  it('close() lets the pass in flight finish and stops; runOnce after close is refused', async () => {
    const pesakit = harness.client({ store });
    for (let i = 0; i < 4; i += 1) {
      await pesakit.collection.initiateMno(
        { amount: 1_000 + i, msisdn: '255754123456' },
        { merchantReference: `close-${i}` },
      );
    }
    proxy = await startProxy(harness.url, { delayMs: () => 100 });
    const reconciler = through(proxy.url).createReconciler({ concurrency: 1 });
    const pass = reconciler.runOnce({ force: true });
    await new Promise<void>((resolve) => reconciler.once('progress', () => resolve()));
    await reconciler.close();
    const summary = await pass;
    expect(summary.checked).toBeGreaterThanOrEqual(1);
    expect(summary.checked).toBeLessThan(4);
    // The records it did not get to were handed back, not left leased for a minute: another
    // reconciler takes every one of them now.
    const next = harness.client({ store }).createReconciler();
    expect((await next.runOnce({ force: true })).checked).toBe(4);
    await next.close();
    await expect(reconciler.runOnce()).rejects.toThrow(/closed/);
  });

  it('start() keeps running passes until close()', async () => {
    const pesakit = harness.client({ store });
    const reconciler = pesakit.createReconciler({
      pollIntervalMs: 20,
      // Checked again every 20 ms: a pass may look before the settlement below (the answer is
      // still pending) and must then keep looking until it sees it.
      schedules: { pending: [1, 20] },
    });
    const settled = new Promise<string>((resolve) =>
      reconciler.on('settled', (record) => resolve(record.merchantReference)),
    );
    reconciler.start();
    const payment = await pesakit.collection.initiateMno(
      { amount: 8_000, msisdn: '255754123456' },
      { merchantReference: 'watched' },
    );
    await harness.control('collection/settle', {
      ref_id: payment.controlNumber,
      outcome: 'success',
    });
    expect(await settled).toBe('watched');
    await reconciler.close();
  });
});

describe('initiating and unknown without a reference', () => {
  it('an initiating record older than the grace is treated as unknown, never failed', async () => {
    await store.records.create({
      merchantReference: 'crashed',
      product: 'collection',
      flow: 'mno',
      amount: 5_000,
      msisdn: '255754123456',
    });
    const pesakit = harness.client({ store });
    const young = pesakit.createReconciler({ initiatingGraceMs: 60_000 });
    expect((await young.runOnce({ force: true })).checked).toBe(0);
    expect((await store.records.get('crashed'))?.status).toBe('initiating');
    await young.close();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const old = pesakit.createReconciler({ initiatingGraceMs: 0 });
    const summary = await old.runOnce({ force: true });
    expect(summary).toMatchObject({ checked: 1, failed: 0, pending: 1 });
    expect(await store.records.get('crashed')).toMatchObject({ status: 'unknown' });
    await old.close();
  });

  it('a collection whose answer was lost waits for its callback within the window', async () => {
    await lostAnswer(harness, 'collection', store, (client, fast) =>
      client.collection.initiateMno(
        { amount: 6_000, msisdn: '255754123456' },
        { merchantReference: 'col-lost', ...fast },
      ),
    );
    expect(await store.records.get('col-lost')).toMatchObject({
      status: 'unknown',
      controlNumber: null,
    });
    proxy = await startProxy(harness.url);
    const reconciler = through(proxy.url).createReconciler({ noReferenceWindowMs: 3_600_000 });
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ checked: 1, pending: 1 });
    // Nothing to pull by: the platform was not asked.
    expect(proxy.requests.filter((request) => isStatusPull(request.path))).toEqual([]);
    expect((await store.records.get('col-lost'))?.status).toBe('unknown');
    await reconciler.close();
  });
});

describe('airtime', () => {
  it('a recharge stays pending with the wallet balance as evidence while nothing proves it', async () => {
    const pesakit = harness.client({ store });
    await fund(harness, 'airtime', 1_000);
    const recharge = await pesakit.airtime.recharge(
      { amount: 50_000, msisdn: '255754123456' },
      { merchantReference: 'recharge-1' },
    );
    expect(recharge.record.status).toBe('pending');
    const reconciler = pesakit.createReconciler();
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ checked: 1, pending: 1 });
    const [leased] = await store.schedule.lease({
      limit: 1,
      leaseMs: 1,
      force: true,
      passStartedAt: new Date(Date.now() + 1_000),
    });
    expect(leased?.observations).toEqual([
      expect.objectContaining({ controlNumber: recharge.controlNumber, wallet: expect.anything() }),
    ]);
    await reconciler.close();
  });
});
