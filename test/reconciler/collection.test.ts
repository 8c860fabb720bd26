import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../../src/references/index.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { json, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

const settle = (ref_id: string, outcome: 'success' | 'failed') =>
  harness.control('collection/settle', { ref_id, outcome });

describe('collections with a platform reference: status pull decides', () => {
  it('settles a paid collection whose callback never came, runs onPaid once, and checks nothing twice', async () => {
    const pesakit = harness.client();
    const paid: TransactionRecord[] = [];
    const settled: string[] = [];
    const payment = await pesakit.collection.initiateMno(
      { amount: 15_000, msisdn: '255754123456' },
      { merchantReference: 'col-paid' },
    );
    const other = await pesakit.collection.initiateMno(
      { amount: 2_000, msisdn: '255754123400' },
      { merchantReference: 'col-open' },
    );
    await settle(payment.controlNumber, 'success');

    const reconciler = pesakit.createReconciler({ onPaid: (record) => void paid.push(record) });
    reconciler.on('settled', (record) => settled.push(record.merchantReference));
    const summary = await reconciler.runOnce({ force: true });

    expect(summary).toMatchObject({
      checked: 2,
      settled: 1,
      failed: 0,
      review: 0,
      pending: 1,
      errors: 0,
    });
    expect(settled).toEqual(['col-paid']);
    expect(paid.map((record) => record.merchantReference)).toEqual(['col-paid']);
    expect((await pesakit.store.records.get('col-paid'))?.status).toBe('success');
    const open = await pesakit.store.records.get(other.merchantReference);
    expect(open).toMatchObject({ status: 'pending', checkCount: 1 });

    // Nothing is due again right away: a second pass pulls nothing.
    const again = await reconciler.runOnce();
    expect(again.checked).toBe(0);
    await reconciler.close();
  });

  it('fails a collection the platform reports failed', async () => {
    const pesakit = harness.client();
    const failedEvents: string[] = [];
    const payment = await pesakit.collection.initiateMno(
      { amount: 3_000, msisdn: '255754123456' },
      { merchantReference: 'col-failed' },
    );
    await settle(payment.controlNumber, 'failed');
    const reconciler = pesakit.createReconciler();
    reconciler.on('failed', (record) => failedEvents.push(record.merchantReference));
    const summary = await reconciler.runOnce({ force: true });
    expect(summary).toMatchObject({ checked: 1, failed: 1 });
    expect(failedEvents).toEqual(['col-failed']);
    expect((await pesakit.store.records.get('col-failed'))?.status).toBe('failed');
    await reconciler.close();
  });

  it('runOnce() without force only pulls what is due on the pending schedule', async () => {
    const pesakit = harness.client();
    await pesakit.collection.initiateMno(
      { amount: 4_000, msisdn: '255754123456' },
      { merchantReference: 'col-scheduled' },
    );
    const reconciler = pesakit.createReconciler({
      schedules: { pending: [60_000] },
      jitter: 0,
    });
    // Just sent: the first check is one early-burst delay after the attempt.
    expect((await reconciler.runOnce()).checked).toBe(0);
    const record = await pesakit.store.records.get('col-scheduled');
    expect(record?.checkCount).toBe(0);
    await reconciler.close();

    // The next due time is stored on the record: another reconciler honours it too.
    const other = pesakit.createReconciler({ schedules: { pending: [1] }, jitter: 0 });
    expect((await other.runOnce()).checked).toBe(0);
    await other.close();

    await pesakit.collection.initiateMno(
      { amount: 4_000, msisdn: '255754123456' },
      { merchantReference: 'col-eager' },
    );
    const eager = pesakit.createReconciler({ schedules: { pending: [1, 3_600_000] }, jitter: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await eager.runOnce()).checked).toBe(1);
    expect((await eager.runOnce()).checked).toBe(0);
    expect((await pesakit.store.records.get('col-eager'))?.checkCount).toBe(1);
    expect((await pesakit.store.records.get('col-scheduled'))?.checkCount).toBe(0);
    await eager.close();
  });

  it('a secure checkout unpaid past checkoutExpiryMs is failed with reason expired', async () => {
    const pesakit = harness.client();
    const checkout = await pesakit.collection.createCheckout(
      { amount: 30_000, callback_url: 'https://shop.example.co.tz/paid' },
      { merchantReference: 'checkout-abandoned' },
    );
    const young = pesakit.createReconciler();
    expect(await young.runOnce({ force: true })).toMatchObject({ checked: 1, pending: 1 });
    await young.close();
    // A pass re-checks what was checked before it started (not in the same millisecond).
    await new Promise((resolve) => setTimeout(resolve, 5));
    const expiring = pesakit.createReconciler({ checkoutExpiryMs: 0 });
    expect(await expiring.runOnce({ force: true })).toMatchObject({ checked: 1, failed: 1 });
    expect(await pesakit.store.records.get(checkout.merchantReference)).toMatchObject({
      status: 'failed',
      statusReason: 'expired',
    });
    await expiring.close();
  });
});

describe('with the sandbox settling by itself: dropped callbacks and late settlement', () => {
  let live: Harness;
  let merchant: RawServer;
  beforeAll(async () => {
    live = await startHarness({ autoSettle: { delayMs: 300 } });
    merchant = await startRawServer((_request, response) => json(response, 200, { ok: true }));
  });
  afterAll(async () => {
    await live.close();
    await merchant.close();
  });

  async function settledAtSandbox(refId: string): Promise<void> {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
      if (live.sandbox.inspect.collection(refId)?.status !== 'pending') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`${refId} never settled at the sandbox`);
  }

  it('a payment whose callback the sandbox dropped is settled by the pull', async () => {
    await live.control('faults', { callbacks: { drop: 1 } });
    const pesakit = live.client();
    const payment = await pesakit.collection.initiateMno(
      { amount: 11_000, msisdn: '255754123456', callback_url: `${merchant.url}/paid` },
      { merchantReference: 'col-dropped' },
    );
    await settledAtSandbox(payment.controlNumber);
    await live.sandbox.idle();
    expect(live.sandbox.inspect.deliveries()).toEqual([
      expect.objectContaining({ outcome: 'dropped' }),
    ]);
    expect(merchant.requests).toEqual([]);
    const reconciler = pesakit.createReconciler();
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ settled: 1 });
    expect((await pesakit.store.records.get('col-dropped'))?.status).toBe('success');
    await reconciler.close();
  });

  it('late settlement (…997): pending on the first pull, settled on a later one', async () => {
    const pesakit = live.client();
    const payment = await pesakit.collection.initiateMno(
      { amount: 12_000, msisdn: '255754123997' },
      { merchantReference: 'col-late' },
    );
    const reconciler = pesakit.createReconciler();
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ checked: 1, pending: 1 });
    await settledAtSandbox(payment.controlNumber);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ checked: 1, settled: 1 });
    expect((await pesakit.store.records.get('col-late'))?.checkCount).toBe(2);
    await reconciler.close();
  });
});

describe('on a SQLite file: the schedule survives a restart', () => {
  it('a reopened store keeps each record’s next due time; nothing is pulled early', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pesakit-reconciler-'));
    const file = join(dir, 'payments.sqlite');
    try {
      const first = await SqliteReferenceStore.open(file);
      const pesakit = harness.client({ store: first });
      const paid = await pesakit.collection.initiateMno(
        { amount: 5_500, msisdn: '255754123456' },
        { merchantReference: 'sqlite-paid' },
      );
      await pesakit.collection.initiateMno(
        { amount: 5_600, msisdn: '255754123456' },
        { merchantReference: 'sqlite-open' },
      );
      await settle(paid.controlNumber, 'success');
      const reconciler = pesakit.createReconciler({ schedules: { pending: [1, 3_600_000] } });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await reconciler.runOnce()).toMatchObject({ checked: 2, settled: 1, pending: 1 });
      await reconciler.close();
      await first.close();

      const reopened = await SqliteReferenceStore.open(file);
      const after = harness.client({ store: reopened }).createReconciler({
        schedules: { pending: [1, 3_600_000] },
      });
      expect((await after.runOnce()).checked).toBe(0);
      expect(await reopened.records.get('sqlite-open')).toMatchObject({
        status: 'pending',
        checkCount: 1,
      });
      expect((await after.runOnce({ force: true })).checked).toBe(1);
      await after.close();
      await reopened.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
