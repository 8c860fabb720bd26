import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { isTransactionNotFoundError } from '../../src/errors/index.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { moves } from '../helpers/moves.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fund, lostAnswer } from './helpers.js';

let harness: Harness;
let store: MemoryReferenceStore;
let pesakit: Pesakit;
let requests: string[];
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});
beforeEach(async () => {
  await harness.control('reset', {});
  await fund(harness, 'disbursement', 10_000_000);
  store = new MemoryReferenceStore();
  pesakit = harness.client({ store });
  requests = [];
  pesakit.on('request', (event) => requests.push(event.path));
});

const payoutsRequests = () => requests.filter((path) => path.includes('getPayments')).length;

describe('disbursement, unknown (no refid): matched in the payout history', () => {
  it('a payout whose answer was lost is found by MSISDN + amount, its refid claimed, and settled', async () => {
    await lostAnswer(harness, 'disbursement', store, (client, fast) =>
      client.disbursement.pay(
        { msisdn: '255754000111', amount: 12_000, name: 'Asha Mushi' },
        { merchantReference: 'payout-lost', metadata: { name: 'Asha Mushi' }, ...fast },
      ),
    );
    expect((await store.records.get('payout-lost'))?.status).toBe('unknown');
    const reconciler = pesakit.createReconciler();
    const summary = await reconciler.runOnce({ force: true });
    expect(summary).toMatchObject({ checked: 1, settled: 1, errors: 0 });
    const record = await store.records.get('payout-lost');
    expect(record?.status).toBe('success');
    expect(record?.refid).toMatch(/^DSB/);
    expect(record?.txnid).toMatch(/^TXN/);
    await reconciler.close();
  });

  it('an upstream failure (…999) whose answer was lost is failed from its history row once the window is over', async () => {
    await lostAnswer(harness, 'disbursement', store, (client, fast) =>
      client.disbursement.pay(
        { msisdn: '255754000999', amount: 5_000, name: 'Juma' },
        { merchantReference: 'payout-upstream-failed', ...fast },
      ),
    );
    // A failed row is no proof while another payout of this one may still appear.
    const waiting = pesakit.createReconciler();
    expect(await waiting.runOnce({ force: true })).toMatchObject({ pending: 1, failed: 0 });
    await waiting.close();
    const reconciler = pesakit.createReconciler({ settleWindowMs: 0 });
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ failed: 1 });
    expect(await store.records.get('payout-upstream-failed')).toMatchObject({
      status: 'failed',
      statusReason: expect.stringMatching(/^failed at the gateway: a failed payout matches it/),
    });
    await reconciler.close();
  });

  it('one history row never settles two records: the second claim loses and stays open', async () => {
    await pesakit.disbursement.pay(
      { msisdn: '255754000222', amount: 7_000, name: 'Neema' },
      { merchantReference: 'payout-real' },
    );
    // Two records claim to be payouts of the same amount to the same number, both unknown.
    for (const merchantReference of ['payout-twin-a', 'payout-twin-b']) {
      await store.records.create({
        merchantReference,
        product: 'disbursement',
        flow: 'disbursement',
        amount: 7_000,
        msisdn: '255754000222',
      });
      await moves(store).transition(merchantReference, 'unknown');
    }
    const reconciler = pesakit.createReconciler({ settleWindowMs: 3_600_000 });
    const summary = await reconciler.runOnce({ force: true });
    // payout-real already owns the row's refid: neither twin may take it.
    expect(summary).toMatchObject({ settled: 0, failed: 0, pending: 2 });
    expect((await store.records.get('payout-twin-a'))?.refid).toBeNull();
    expect((await store.records.get('payout-twin-b'))?.refid).toBeNull();
    await reconciler.close();
  });

  it('two unknown records and one unclaimed row: exactly one gets it', async () => {
    await lostAnswer(harness, 'disbursement', store, (client, fast) =>
      client.disbursement.pay(
        { msisdn: '255754000333', amount: 9_000, name: 'Baraka' },
        { merchantReference: 'payout-one', ...fast },
      ),
    );
    await store.records.create({
      merchantReference: 'payout-two',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 9_000,
      msisdn: '255754000333',
    });
    await moves(store).transition('payout-two', 'unknown');
    const reconciler = pesakit.createReconciler({ settleWindowMs: 3_600_000 });
    const summary = await reconciler.runOnce({ force: true });
    expect(summary).toMatchObject({ settled: 1, pending: 1 });
    const statuses = [
      (await store.records.get('payout-one'))?.status,
      (await store.records.get('payout-two'))?.status,
    ].sort();
    expect(statuses).toEqual(['success', 'unknown']);
    await reconciler.close();
  });

  it('absence fails a payout only after the settle window, when the pages cover it', async () => {
    await store.records.create({
      merchantReference: 'payout-never-sent',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 4_321,
      msisdn: '255754000444',
    });
    await moves(store).transition('payout-never-sent', 'unknown');
    const waiting = pesakit.createReconciler({ settleWindowMs: 3_600_000 });
    expect(await waiting.runOnce({ force: true })).toMatchObject({ pending: 1, failed: 0 });
    await waiting.close();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const done = pesakit.createReconciler({ settleWindowMs: 0 });
    expect(await done.runOnce({ force: true })).toMatchObject({ failed: 1 });
    expect(await store.records.get('payout-never-sent')).toMatchObject({
      status: 'failed',
      statusReason: expect.stringMatching(/^never reached the platform/),
    });
    await done.close();
  });
});

describe('disbursement: a settle window too short to be proof is warned about', () => {
  it('under a minute: a PESAKIT_SHORT_SETTLE_WINDOW warning naming the risk; a minute or the default: none', async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    const ours = () =>
      warnings.filter(
        (warning) => (warning as { code?: string }).code === 'PESAKIT_SHORT_SETTLE_WINDOW',
      );
    process.on('warning', listen);
    try {
      const quiet = [
        pesakit.createReconciler(),
        pesakit.createReconciler({ settleWindowMs: 60_000 }),
      ];
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(ours()).toEqual([]);
      const short = pesakit.createReconciler({ settleWindowMs: 59_999 });
      await new Promise((resolve) => setImmediate(resolve));
      expect(ours()).toHaveLength(1);
      expect(ours()[0]?.message).toMatch(/settleWindowMs: 59999 .*under 60000 ms/);
      expect(ours()[0]?.message).toMatch(/may be paid again/);
      await Promise.all([...quiet, short].map((reconciler) => reconciler.close()));
    } finally {
      process.off('warning', listen);
    }
  });
});

describe('disbursement, pending with a refid: found by refid/txnid, history pulled once per pass', () => {
  it('settles every due payout from one walk of the history', async () => {
    for (let i = 0; i < 5; i += 1) {
      const paid = await harness.client().disbursement.pay({
        msisdn: `25575400050${i}`,
        amount: 1_000 + i,
        name: `Payee ${i}`,
      });
      // Our records of them: pending, with the refid (as if the answer said "pending").
      await store.records.create({
        merchantReference: `payout-pending-${i}`,
        product: 'disbursement',
        flow: 'disbursement',
        amount: 1_000 + i,
        msisdn: `25575400050${i}`,
      });
      await moves(store).attachReferences(`payout-pending-${i}`, {
        refid: paid.response.reference,
      });
      await moves(store).transition(`payout-pending-${i}`, 'pending');
    }
    const reconciler = pesakit.createReconciler();
    const summary = await reconciler.runOnce({ force: true });
    expect(summary).toMatchObject({ checked: 5, settled: 5 });
    expect(payoutsRequests()).toBe(1);
    await reconciler.close();
  });

  it('walks every page it needs once, however many payouts are due', async () => {
    const other = harness.client();
    const refids: string[] = [];
    for (let i = 0; i < 130; i += 1) {
      const paid = await other.disbursement.pay({
        msisdn: '255754000800',
        amount: 1_000 + i,
        name: 'Bulk',
      });
      refids.push(paid.response.reference);
    }
    // Due payouts on both pages (the oldest ones are on page 2: the list is newest first).
    for (const i of [0, 1, 2, 128, 129]) {
      await store.records.create({
        merchantReference: `payout-page-${i}`,
        product: 'disbursement',
        flow: 'disbursement',
        amount: 1_000 + i,
        msisdn: '255754000800',
      });
      await moves(store).attachReferences(`payout-page-${i}`, { refid: refids[i]! });
      await moves(store).transition(`payout-page-${i}`, 'pending');
    }
    const reconciler = pesakit.createReconciler();
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ checked: 5, settled: 5 });
    expect(payoutsRequests()).toBe(2);
    await reconciler.close();
  });

  it('a completed payout for another amount goes to needs_review amount_mismatch', async () => {
    const paid = await harness.client().disbursement.pay({
      msisdn: '255754000600',
      amount: 2_500,
      name: 'Rehema',
    });
    await store.records.create({
      merchantReference: 'payout-mismatch',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 2_000,
      msisdn: '255754000600',
    });
    await moves(store).attachReferences('payout-mismatch', { refid: paid.response.reference });
    await moves(store).transition('payout-mismatch', 'pending');
    const reviews: string[] = [];
    const reconciler = pesakit.createReconciler();
    reconciler.on('review', (_record, verdict) => reviews.push(verdict.reason));
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ review: 1 });
    expect(reviews).toEqual(['amount_mismatch']);
    expect((await store.records.get('payout-mismatch'))?.status).toBe('needs_review');
    await reconciler.close();
  });

  it('a completed payout to another MSISDN goes to needs_review answer_contradicts_request, with the evidence', async () => {
    const paid = await harness.client().disbursement.pay({
      msisdn: '255754000601',
      amount: 2_000,
      name: 'Rehema',
    });
    await store.records.create({
      merchantReference: 'payout-other-number',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 2_000,
      msisdn: '255754000602',
    });
    await moves(store).attachReferences('payout-other-number', { refid: paid.response.reference });
    await moves(store).transition('payout-other-number', 'pending');
    const reconciler = pesakit.createReconciler();
    expect(await reconciler.runOnce({ force: true })).toMatchObject({ review: 1 });
    expect(await store.records.get('payout-other-number')).toMatchObject({
      status: 'needs_review',
      review: {
        reason: 'answer_contradicts_request',
        evidence: {
          contradictions: [{ field: 'msisdn', asked: '255754000602', answered: '255754000601' }],
        },
      },
    });
    await reconciler.close();
  });
});

describe('disbursement.status(merchantReference): the stored record, refreshed from the payout history', () => {
  it('an unknown reference is an error naming it', async () => {
    const error = await pesakit.disbursement.status('no-such-payout').catch((e: unknown) => e);
    expect(isTransactionNotFoundError(error)).toBe(true);
    expect(String(error)).toContain('no-such-payout');
  });

  it('a payout whose answer was lost is found in the history and settled, as the reconciler would', async () => {
    await lostAnswer(harness, 'disbursement', store, (client, fast) =>
      client.disbursement.pay(
        { msisdn: '255754000112', amount: 7_000, name: 'Baraka' },
        { merchantReference: 'payout-status-lost', ...fast },
      ),
    );
    const record = await pesakit.disbursement.status('payout-status-lost');
    expect(record).toMatchObject({ merchantReference: 'payout-status-lost', status: 'success' });
    expect(record.refid).toMatch(/^DSB/);
    expect((await store.records.get('payout-status-lost'))?.status).toBe('success');
  });

  it('a pending payout whose history row shows another amount goes to needs_review', async () => {
    const paid = await harness.client().disbursement.pay({
      msisdn: '255754000603',
      amount: 3_000,
      name: 'Zawadi',
    });
    await store.records.create({
      merchantReference: 'payout-status-mismatch',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 300,
      msisdn: '255754000603',
    });
    await moves(store).attachReferences('payout-status-mismatch', {
      refid: paid.response.reference,
    });
    await moves(store).transition('payout-status-mismatch', 'pending');
    const record = await pesakit.disbursement.status('payout-status-mismatch');
    expect(record.status).toBe('needs_review');
    expect(record.review?.reason).toBe('amount_mismatch');
  });

  it('a final record is returned as stored, without a pull', async () => {
    await pesakit.disbursement.pay(
      { msisdn: '255754000604', amount: 1_000, name: 'Imani' },
      { merchantReference: 'payout-status-final' },
    );
    requests = [];
    const record = await pesakit.disbursement.status('payout-status-final');
    expect(record.status).toBe('success');
    expect(payoutsRequests()).toBe(0);
  });
});

describe('handlers see only what they are for: money out runs onSent, never onPaid', () => {
  it('a receiver with only onPaid leaves a payout’s and an airtime sale’s effects due; a reconciler with onSent runs each once', async () => {
    await fund(harness, 'airtime', 100_000);
    const payee = { msisdn: '255754000777', amount: 7_000, name: 'Asha Mushi' };
    await pesakit.disbursement.pay(payee, { merchantReference: 'payout-out' });
    const sale = { amount: 2_000, msisdn: '255754123456' };
    await pesakit.airtime.purchase(sale, { merchantReference: 'airtime-out' });
    const due = async () =>
      (await store.effects.list('due')).map((r) => r.merchantReference).sort();
    expect(await due()).toEqual(['airtime-out', 'payout-out']);

    const paid: string[] = [];
    const receiver = pesakit.createCallbackReceiver({
      onPaid: (record) => void paid.push(record.merchantReference),
      effectDrainIntervalMs: 10,
    });
    receiver.start();
    await receiver.onIdle();
    await receiver.close();
    expect(paid).toEqual([]);
    expect(await due()).toEqual(['airtime-out', 'payout-out']);

    const onPaid = pesakit.createReconciler({ onPaid: () => void paid.push('reconciler') });
    expect((await onPaid.runOnce()).unhandledEffects).toEqual({ sent: 2 });
    await onPaid.close();

    const sent: string[] = [];
    const reconciler = pesakit.createReconciler({
      onSent: (record) =>
        void sent.push(
          record.product === 'airtime'
            ? `airtime ${record.flow} to ${record.msisdn}`
            : `payout ${record.merchantReference}`,
        ),
    });
    expect((await reconciler.runOnce()).unhandledEffects).toEqual({});
    await reconciler.runOnce();
    await reconciler.close();
    expect(sent.sort()).toEqual(['airtime airtime_purchase to 255754123456', 'payout payout-out']);
    expect(paid).toEqual([]);
    expect(await due()).toEqual([]);
  });
});
