import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackReceiverOptions } from '../../src/callbacks/options.js';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { type Pesakit, verifyCheckoutReturn } from '../../src/client.js';
import type { TransactionRecord } from '../../src/references/record.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { moves } from '../helpers/moves.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { engineCallback, merchantCallback } from './payloads.js';
import { eventually, type ReceiverServer, serveReceiver } from './receiver-server.js';

// The receiver against the real sandbox: it pushes real callbacks to a plain node:http server that
// hands them to receiver.receive(); the receiver pulls the platform's status before crediting.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

interface Shop {
  pesakit: Pesakit;
  receiver: CallbackReceiver;
  server: ReceiverServer;
  paid: string[];
  failed: string[];
  reviews: Array<{ record: TransactionRecord | null; reason: string }>;
  events: Array<[string, unknown]>;
}

const shops: Shop[] = [];
afterEach(async () => {
  await harness.control('faults', {
    callbacks: { drop: 0, duplicate: 1, delayMs: 0, reorder: false },
  });
  for (const shop of shops.splice(0)) {
    await shop.receiver.close();
    await shop.server.close();
    await shop.pesakit.store.close();
  }
});

async function openShop(
  options: CallbackReceiverOptions = {},
  { pullWindowMs = 1 }: { pullWindowMs?: number } = {},
): Promise<Shop> {
  const store = await SqliteReferenceStore.open(':memory:');
  const pesakit = harness.client({ store, pullWindowMs });
  const shop: Shop = { pesakit, paid: [], failed: [], reviews: [], events: [] } as unknown as Shop;
  shop.receiver = pesakit.createCallbackReceiver({
    onPaid: (record) => {
      shop.paid.push(record.merchantReference);
    },
    onFailed: (record) => {
      shop.failed.push(record.merchantReference);
    },
    onReview: (record, verdict) => {
      shop.reviews.push({ record, reason: verdict.reason });
    },
    pollIntervalMs: 50,
    recheckDelaysMs: [100],
    effectDrainIntervalMs: 200,
    ...options,
  });
  for (const name of [
    'received',
    'duplicate',
    'paid',
    'failed',
    'review',
    'orphan',
    'unconfirmed',
    'error',
  ] as const) {
    shop.receiver.on(name, (event: unknown) => shop.events.push([name, event]));
  }
  shop.server = await serveReceiver(shop.receiver);
  shop.receiver.start();
  shops.push(shop);
  return shop;
}

const settle = (ref_id: string, outcome: 'success' | 'failed') =>
  harness.control('collection/settle', { ref_id, outcome });

async function pay(shop: Shop, merchantReference: string, amount = 15_000) {
  return shop.pesakit.collection.initiateMno(
    { amount, msisdn: '255754123456', callback_url: `${shop.server.url}/callback` },
    { merchantReference },
  );
}

const statusOf = async (shop: Shop, reference: string) =>
  (await shop.pesakit.store.records.get(reference))?.status;

const named = (shop: Shop, name: string) => shop.events.filter(([event]) => event === name);

describe('callbacks from the sandbox, verified by pull', () => {
  it('paid: the record becomes success and onPaid runs once', async () => {
    const shop = await openShop();
    const payment = await pay(shop, 'order-paid');
    await settle(payment.controlNumber, 'success');
    await eventually(() => shop.paid.length === 1, 15_000, 'onPaid');
    expect(await statusOf(shop, 'order-paid')).toBe('success');
    expect(shop.paid).toEqual(['order-paid']);
    expect(named(shop, 'paid')).toHaveLength(1);
    const [entry] = await shop.pesakit.store.inbox.list();
    expect(entry).toMatchObject({ status: 'done', outcome: 'paid' });
  });

  it('failed: the record becomes failed and onFailed runs once', async () => {
    const shop = await openShop();
    const payment = await pay(shop, 'order-failed');
    await settle(payment.reference, 'failed');
    await eventually(() => shop.failed.length === 1, 15_000, 'onFailed');
    expect(await statusOf(shop, 'order-failed')).toBe('failed');
    expect(shop.paid).toEqual([]);
  });

  it('duplicated ×5: one inbox entry, four counted duplicates, onPaid once', async () => {
    const shop = await openShop();
    await harness.control('faults', { callbacks: { duplicate: 5 } });
    const payment = await pay(shop, 'order-dup');
    await settle(payment.controlNumber, 'success');
    const entry = await eventually(
      async () => {
        const [first] = await shop.pesakit.store.inbox.list();
        return first && first.duplicates === 4 && first.status === 'done' ? first : undefined;
      },
      15_000,
      'five deliveries',
    );
    expect(entry.outcome).toBe('paid');
    await eventually(() => shop.paid.length === 1, 15_000, 'onPaid');
    expect(named(shop, 'duplicate')).toHaveLength(4);
    expect(named(shop, 'received')).toHaveLength(1);
    expect(shop.paid).toEqual(['order-dup']);
    // One pull for five deliveries: duplicates are not processed again.
    expect(shop.receiver.pulls).toBe(1);
  });

  it('delayed: a late callback still closes the payment', async () => {
    const shop = await openShop();
    await harness.control('faults', { callbacks: { delayMs: 400 } });
    const payment = await pay(shop, 'order-late');
    await settle(payment.controlNumber, 'success');
    expect(await statusOf(shop, 'order-late')).toBe('pending');
    await eventually(() => shop.paid.length === 1, 15_000, 'onPaid');
    expect(await statusOf(shop, 'order-late')).toBe('success');
  });

  it('reordered: deliveries released newest-first each settle their own record', async () => {
    const shop = await openShop();
    await harness.control('faults', { callbacks: { reorder: true } });
    const first = await pay(shop, 'order-r1');
    const second = await pay(shop, 'order-r2');
    await settle(first.controlNumber, 'success');
    await settle(second.controlNumber, 'failed');
    await eventually(() => shop.paid.length === 1 && shop.failed.length === 1, 15_000, 'both');
    expect(shop.paid).toEqual(['order-r1']);
    expect(shop.failed).toEqual(['order-r2']);
  });

  it('forged success: a POSTed claim the platform does not confirm is never paid', async () => {
    const shop = await openShop();
    const payment = await pay(shop, 'order-forged');
    const forged = merchantCallback({
      paymentReference: payment.reference,
      controlNumber: payment.controlNumber,
      amount: 15_000,
    });
    const response = await fetch(`${shop.server.url}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(forged),
    });
    expect(response.status).toBe(200);
    // Pulled again on its schedule, and still not credited.
    await eventually(
      async () => {
        const [entry] = await shop.pesakit.store.inbox.list();
        return (entry?.attempts ?? 0) >= 3;
      },
      15_000,
      'rechecks',
    );
    expect(await statusOf(shop, 'order-forged')).toBe('pending');
    expect(shop.paid).toEqual([]);
    expect(named(shop, 'paid')).toEqual([]);
    expect(named(shop, 'review')).toEqual([]);
  });

  it('underpaid: the platform settles another amount → needs_review (amount_mismatch), onReview, never onPaid', async () => {
    const shop = await openShop();
    const payment = await pay(shop, 'order-short');
    // The engine reports success for 14,000 of 15,000: a short payment. The sandbox settles the
    // collection with paid_amount 14,000 and pushes the merchant callback.
    const engine = await fetch(`${harness.url}/api/sandbox/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(engineCallback({ paymentReference: payment.reference, amount: 14_000 })),
    });
    expect(engine.status).toBe(200);
    await eventually(() => shop.reviews.length === 1, 15_000, 'onReview');
    expect(shop.reviews[0]?.reason).toBe('amount_mismatch');
    expect(shop.reviews[0]?.record?.merchantReference).toBe('order-short');
    const record = await shop.pesakit.store.records.get('order-short');
    expect(record?.status).toBe('needs_review');
    expect(record?.review?.reason).toBe('amount_mismatch');
    expect(shop.paid).toEqual([]);

    // A person decides: resolve makes the effect due again, and onPaid runs.
    await moves(shop.pesakit.store).resolve('order-short', 'success', {
      note: 'The customer paid the remaining 1,000 TZS in cash',
      by: 'amina',
    });
    await eventually(() => shop.paid.length === 1, 15_000, 'onPaid after resolve');
    expect(shop.paid).toEqual(['order-short']);
  });

  it('a success claim never confirmed within claimWindowMs is an event; the real payment is still paid once', async () => {
    const shop = await openShop({ claimWindowMs: 300, recheckDelaysMs: [100] });
    const payment = await pay(shop, 'order-unconfirmed');
    await fetch(`${shop.server.url}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        merchantCallback({
          paymentReference: payment.reference,
          controlNumber: payment.controlNumber,
          amount: 15_000,
          transactionID: 'FORGED-1',
        }),
      ),
    });
    const [[, unconfirmed] = []] = await eventually(
      () => (named(shop, 'unconfirmed').length === 1 ? named(shop, 'unconfirmed') : undefined),
      15_000,
      'the unconfirmed event',
    );
    expect(unconfirmed).toMatchObject({ record: { merchantReference: 'order-unconfirmed' } });
    expect(await statusOf(shop, 'order-unconfirmed')).toBe('pending');
    expect(shop.reviews).toEqual([]);
    // The customer really pays: the genuine callback settles it, and onPaid runs once.
    await settle(payment.controlNumber, 'success');
    await eventually(() => shop.paid.length === 1, 15_000, 'onPaid');
    await shop.receiver.onIdle();
    expect(shop.paid).toEqual(['order-unconfirmed']);
    expect(await statusOf(shop, 'order-unconfirmed')).toBe('success');
  });

  it('orphan: a callback that matches nothing is kept and handed to onReview', async () => {
    const shop = await openShop();
    const stray = merchantCallback({
      paymentReference: 'PR-NOBODY',
      controlNumber: '990000000001',
      amount: 7_000,
    });
    await fetch(`${shop.server.url}/callback?pesakit_ref=not-ours`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(stray),
    });
    await eventually(() => shop.reviews.length === 1, 15_000, 'onReview');
    expect(shop.reviews).toEqual([{ record: null, reason: 'orphan' }]);
    expect(named(shop, 'orphan')).toHaveLength(1);
    const orphans = await shop.pesakit.store.inbox.list({ outcome: 'orphan' });
    expect(orphans).toHaveLength(1);
    expect(JSON.parse(orphans[0]?.body ?? '{}')).toEqual(stray);
    expect(shop.receiver.pulls).toBe(0);
  });

  it('an initiation whose answer was lost (unknown) is found by pesakit_ref and settled', async () => {
    const shop = await openShop();
    // The merchant stored the intent; the answer never came back: unknown, no references.
    await shop.pesakit.store.records.create({
      merchantReference: 'order-lost',
      product: 'collection',
      flow: 'mno',
      amount: 12_000,
      msisdn: '255754123456',
    });
    await moves(shop.pesakit.store).transition('order-lost', 'unknown', { reason: 'timeout' });
    // The request did reach the platform: sent here by another client with its own store, so
    // the shop's store learns nothing from the answer. The SDK put the merchant reference on
    // the callback URL as pesakit_ref.
    const elsewhere = harness.client();
    const payment = await elsewhere.collection.initiateMno(
      {
        amount: 12_000,
        msisdn: '255754123456',
        callback_url: `${shop.server.url}/callback`,
      },
      { merchantReference: 'order-lost' },
    );
    await settle(payment.controlNumber, 'success');
    await eventually(() => shop.paid.length === 1, 15_000, 'onPaid');
    expect(await shop.pesakit.store.records.get('order-lost')).toMatchObject({
      status: 'success',
      controlNumber: payment.controlNumber,
      paymentReference: payment.reference,
    });
  });
});

describe('checkout return: never trusts the query string', () => {
  async function checkout(shop: Shop, merchantReference: string) {
    const created = await shop.pesakit.collection.createCheckout(
      { amount: 30_000, callback_url: `${shop.server.url}/callback` },
      { merchantReference },
    );
    await shop.pesakit.collection.checkoutMno({
      token: created.payment_token,
      msisdn: '255754123456',
    });
    return created;
  }
  const back = (shop: Shop, query: string) =>
    fetch(`${shop.server.url}/return?${query}`, { redirect: 'manual' });

  it('pending, then paid: 303 to the matching return URL', async () => {
    const shop = await openShop({
      returnUrls: {
        paid: 'https://shop.example/paid',
        pending: 'https://shop.example/wait',
        failed: 'https://shop.example/failed',
      },
    });
    const created = await checkout(shop, 'cart-return');
    const early = await back(shop, `external_reference=${created.external_reference}`);
    expect(early.status).toBe(303);
    expect(early.headers.get('location')).toBe(
      'https://shop.example/wait?merchant_reference=cart-return',
    );
    await settle(created.controlNumber, 'success');
    const late = await back(shop, `external_reference=${created.external_reference}`);
    expect(late.status).toBe(303);
    expect(late.headers.get('location')).toBe(
      'https://shop.example/paid?merchant_reference=cart-return',
    );
    expect(await statusOf(shop, 'cart-return')).toBe('success');
    await eventually(() => shop.paid.length === 1, 15_000, 'onPaid');
    expect(shop.paid).toEqual(['cart-return']);
  });

  it('returnUrls given per call (by a middleware) win over the receiver own', async () => {
    const shop = await openShop({ returnUrls: { pending: 'https://shop.example/wait' } });
    const created = await checkout(shop, 'cart-override');
    const answer = await shop.receiver.receive(
      {
        method: 'GET',
        url: `/return?external_reference=${created.external_reference}`,
        headers: {},
      },
      { returnUrls: { pending: 'https://middleware.example/pending' } },
    );
    expect(answer.status).toBe(303);
    expect(answer.headers['location']).toBe(
      'https://middleware.example/pending?merchant_reference=cart-override',
    );
  });

  it('forged: ?status=success on a pending checkout answers pending and marks nothing', async () => {
    const shop = await openShop();
    const created = await checkout(shop, 'cart-forged');
    const forged = await back(
      shop,
      `external_reference=${created.external_reference}&status=success&paid=1`,
    );
    expect(forged.status).toBe(200);
    expect(await forged.json()).toEqual({
      status: 'pending',
      paid: false,
      merchantReference: 'cart-forged',
    });
    expect(await statusOf(shop, 'cart-forged')).toBe('pending');
    const unknown = await back(shop, 'external_reference=EXT-NOT-OURS&status=success');
    expect(unknown.status).toBe(404);
    const missing = await back(shop, 'status=success');
    expect(missing.status).toBe(422);
  });

  it('verifyCheckoutReturn: many browser returns share one status pull with the receiver', async () => {
    const shop = await openShop({}, { pullWindowMs: 60_000 });
    const created = await checkout(shop, 'cart-hits');
    const query = { external_reference: created.external_reference };
    await Promise.all(Array.from({ length: 20 }, () => verifyCheckoutReturn(shop.pesakit, query)));
    for (let hit = 0; hit < 5; hit += 1) await verifyCheckoutReturn(shop.pesakit, query);
    expect(shop.receiver.pulls).toBe(1);
  });

  it('verifyCheckoutReturn refuses anything but a Pesakit client, naming it', async () => {
    const query = { external_reference: 'EXT-1' };
    await expect(verifyCheckoutReturn({} as Pesakit, query)).rejects.toMatchObject({
      code: 'configuration_error',
      option: 'pesakit',
    });
  });

  it('verifyCheckoutReturn(pesakit, query) works without a framework', async () => {
    const shop = await openShop();
    const created = await checkout(shop, 'cart-verify');
    expect(
      (
        await verifyCheckoutReturn(shop.pesakit, {
          external_reference: created.external_reference,
          status: 'success',
        })
      ).outcome,
    ).toBe('pending');
    await settle(created.controlNumber, 'failed');
    const result = await verifyCheckoutReturn(shop.pesakit, {
      external_reference: created.external_reference,
    });
    expect(result.outcome).toBe('failed');
    expect(result.record?.merchantReference).toBe('cart-verify');
    expect((await verifyCheckoutReturn(shop.pesakit, {})).outcome).toBe('not_found');
  });
});
