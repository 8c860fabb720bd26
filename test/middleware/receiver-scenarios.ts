import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackReceiverOptions } from '../../src/callbacks/options.js';
import type { Pesakit } from '../../src/client.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { type Framework, type MerchantApp, type MountOptions, startMerchantApp } from './mount.js';
import { Outcomes } from './outcomes.js';

const returnUrls = {
  paid: 'https://shop.example.co.tz/thanks',
  pending: 'https://shop.example.co.tz/pending',
  failed: 'https://shop.example.co.tz/failed',
};

type Receiver = ReturnType<Pesakit['createCallbackReceiver']>;

interface Shop {
  pesakit: Pesakit;
  receiver: Receiver;
  app: MerchantApp;
  outcomes: Outcomes;
  callbackUrl: string;
}

/**
 * The same merchant scenarios inside a real Express 5 or Fastify 5 app on port 0, against a
 * real sandbox that pushes real callbacks to the app's `/pesakit/callback`.
 */
export function describeReceiverMount(framework: Framework): void {
  let harness: Harness;
  const open: Shop[] = [];

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterEach(async () => {
    for (const shop of open.splice(0)) {
      await shop.app.close();
      await shop.receiver.close();
    }
    await harness.sandbox.idle();
    await harness.control('reset', {});
  });
  afterAll(async () => {
    await harness.close();
  });

  async function openShop(
    mount: MountOptions = {},
    receiverOptions: CallbackReceiverOptions = {},
  ): Promise<Shop> {
    const outcomes = new Outcomes();
    const pesakit = harness.client({ store: new MemoryReferenceStore() });
    const receiver = pesakit.createCallbackReceiver({ ...receiverOptions, ...outcomes.handlers });
    const app = await startMerchantApp(framework, receiver, mount);
    receiver.start();
    const shop = { pesakit, receiver, app, outcomes, callbackUrl: `${app.url}/pesakit/callback` };
    open.push(shop);
    return shop;
  }

  async function pay(shop: Shop, amount = 15_000) {
    return shop.pesakit.collection.initiateMno({
      amount,
      msisdn: '255754123456',
      callback_url: shop.callbackUrl,
    });
  }

  const settle = (controlNumber: string, outcome: 'success' | 'failed') =>
    harness.control('collection/settle', { ref_id: controlNumber, outcome });

  describe(`${framework}: a pushed callback closes the payment, verified by pull`, () => {
    it('paid: the sandbox settles, calls back, onPaid runs once and the record is success', async () => {
      const shop = await openShop();
      const payment = await pay(shop);
      await settle(payment.controlNumber, 'success');
      const paid = await shop.outcomes.next('paid', payment.merchantReference);
      expect(paid.record?.status).toBe('success');
      expect((await shop.pesakit.store.records.get(payment.merchantReference))?.status).toBe(
        'success',
      );
      await harness.sandbox.idle();
      expect(shop.outcomes.count('paid', payment.merchantReference)).toBe(1);
    });

    it('failed: onFailed runs once and the record is failed', async () => {
      const shop = await openShop();
      const payment = await pay(shop);
      await settle(payment.controlNumber, 'failed');
      const failed = await shop.outcomes.next('failed', payment.merchantReference);
      expect(failed.record?.status).toBe('failed');
      expect(shop.outcomes.count('paid', payment.merchantReference)).toBe(0);
    });

    it('duplicated ×5: five deliveries, all answered 200, stored once, onPaid runs once', async () => {
      const shop = await openShop();
      const seen = { received: 0, duplicate: 0 };
      shop.receiver.on('received', () => seen.received++);
      shop.receiver.on('duplicate', () => seen.duplicate++);
      await harness.control('faults', { callbacks: { duplicate: 5 } });
      const payment = await pay(shop);
      await settle(payment.controlNumber, 'success');
      await shop.outcomes.next('paid', payment.merchantReference);
      await harness.sandbox.idle();
      const { deliveries } = (await harness.control('deliveries')) as {
        deliveries: Array<{ outcome: string; url?: string }>;
      };
      expect(deliveries.filter((d) => d.outcome === 'delivered')).toHaveLength(5);
      expect(seen).toEqual({ received: 1, duplicate: 4 });
      await shop.receiver.close(); // drains: any further processing would have happened
      expect(shop.outcomes.count('paid', payment.merchantReference)).toBe(1);
    });

    it('delayed: a callback that arrives late still closes the payment', async () => {
      const shop = await openShop();
      await harness.control('faults', { callbacks: { delayMs: 300 } });
      const payment = await pay(shop);
      await settle(payment.controlNumber, 'success');
      await shop.outcomes.next('paid', payment.merchantReference);
      expect((await shop.pesakit.store.records.get(payment.merchantReference))?.status).toBe(
        'success',
      );
    });

    it('reordered: callbacks released newest-first still land on the right payments', async () => {
      const shop = await openShop();
      await harness.control('faults', { callbacks: { reorder: true, delayMs: 300 } });
      const first = await pay(shop, 10_000);
      const second = await pay(shop, 20_000);
      await settle(first.controlNumber, 'failed');
      await settle(second.controlNumber, 'success');
      await shop.outcomes.next('failed', first.merchantReference);
      await shop.outcomes.next('paid', second.merchantReference);
      expect(shop.outcomes.count('paid', first.merchantReference)).toBe(0);
      expect(shop.outcomes.count('failed', second.merchantReference)).toBe(0);
    });
  });

  describe(`${framework}: a callback is a hint; nothing is credited on its word`, () => {
    it('forged success: a "status: true" the platform does not confirm is never paid', async () => {
      const shop = await openShop({}, { claimWindowMs: 200, recheckDelaysMs: [50] });
      const payment = await pay(shop);
      const forged = merchantCallback({
        controlNumber: payment.controlNumber,
        paymentReference: payment.reference,
        amount: 15_000,
      });
      const unconfirmed = new Promise<string | undefined>((resolve) => {
        shop.receiver.on('unconfirmed', ({ record }) => resolve(record.merchantReference));
      });
      const answer = await post(
        `${shop.callbackUrl}?pesakit_ref=${payment.merchantReference}`,
        forged,
      );
      expect(answer.status).toBe(200);
      // The receiver pulled the status: still pending, so the claim is not believed.
      expect(await unconfirmed).toBe(payment.merchantReference);
      await shop.receiver.close();
      expect(shop.outcomes.count('paid', payment.merchantReference)).toBe(0);
      expect(shop.outcomes.count('review', payment.merchantReference)).toBe(0);
      expect((await shop.pesakit.store.records.get(payment.merchantReference))?.status).toBe(
        'pending',
      );
    });

    it('a source address over its budget gets 503 with Retry-After and stores nothing more', async () => {
      const budget = { sourceBudget: { callbacksPerMinute: 2 } };
      const shop = await openShop({}, budget);
      const forged = (n: number) =>
        merchantCallback({ controlNumber: `99${n}`, paymentReference: `PR-${n}`, amount: 1 });
      expect((await post(shop.callbackUrl, forged(1))).status).toBe(200);
      expect((await post(shop.callbackUrl, forged(2))).status).toBe(200);
      const refused = await post(shop.callbackUrl, forged(3));
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await shop.pesakit.store.inbox.list()).toHaveLength(2);
      // Behind a trusted proxy each client has its own budget.
      const proxied = await openShop({ trustProxy: true }, budget);
      for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        const answer = await post(proxied.callbackUrl, forged(4), { 'x-forwarded-for': client });
        expect(answer.status).toBe(200);
      }
    });

    it('underpaid: the platform says success for 150 of 15,000 → needs_review, never paid', async () => {
      const shop = await openShop();
      const payment = await pay(shop);
      // The engine reports a short payment; the sandbox records it as reported and calls back.
      await postEngineCallback(harness.url, { paymentReference: payment.reference, amount: 150 });
      const review = await shop.outcomes.next('review', payment.merchantReference);
      expect(review.verdict?.reason).toBe('amount_mismatch');
      expect(review.record?.status).toBe('needs_review');
      expect(shop.outcomes.count('paid', payment.merchantReference)).toBe(0);
    });

    it('orphan: a callback that matches no payment is acknowledged and kept for review', async () => {
      const shop = await openShop();
      const orphan = merchantCallback({
        controlNumber: '990000000001',
        paymentReference: 'ENG00000000000000ff',
        amount: 5_000,
      });
      const answer = await post(shop.callbackUrl, orphan);
      expect(answer.status).toBe(200);
      const review = await shop.outcomes.nextOrphan();
      expect(review.verdict?.reason).toBe('orphan');
      expect(review.record).toBeNull();
    });
  });

  describe(`${framework}: the checkout return is verified, never trusted (spec rule 10)`, () => {
    async function checkout(shop: Shop) {
      return shop.pesakit.collection.createCheckout({
        amount: 30_000,
        callback_url: `${shop.app.url}/pesakit/return`,
      });
    }
    const returnTo = (shop: Shop, query: string) =>
      fetch(`${shop.app.url}/pesakit/return?${query}`, { redirect: 'manual' });

    it('paid: a checkout the platform confirms redirects 303 to returnUrls.paid and pays once', async () => {
      const shop = await openShop({ returnUrls });
      const started = await checkout(shop);
      const phone = await shop.pesakit.collection.checkoutMno({
        token: started.payment_token,
        msisdn: '255754123456',
      });
      // The platform POSTs its settlement callback to the checkout's one callback_url — the
      // return route — and it is received there like any callback.
      const received = new Promise((resolve) => shop.receiver.once('received', resolve));
      await settle(phone.controlNumber, 'success');
      await received;
      const answer = await returnTo(
        shop,
        `external_reference=${started.external_reference}&status=success`,
      );
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(
        `${returnUrls.paid}?merchant_reference=${started.merchantReference}`,
      );
      await shop.outcomes.next('paid', started.merchantReference);
      expect((await shop.pesakit.store.records.get(started.merchantReference))?.status).toBe(
        'success',
      );
    });

    it('pending: a checkout not paid yet redirects to returnUrls.pending', async () => {
      const shop = await openShop({ returnUrls });
      const started = await checkout(shop);
      const answer = await returnTo(shop, `external_reference=${started.external_reference}`);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(
        `${returnUrls.pending}?merchant_reference=${started.merchantReference}`,
      );
    });

    it('forged: ?status=success on an unpaid checkout does not mark it paid', async () => {
      const shop = await openShop({ returnUrls });
      const started = await checkout(shop);
      const answer = await returnTo(
        shop,
        `external_reference=${started.external_reference}&status=success`,
      );
      expect(answer.headers.get('location')).toBe(
        `${returnUrls.pending}?merchant_reference=${started.merchantReference}`,
      );
      await shop.receiver.close();
      expect(shop.outcomes.count('paid', started.merchantReference)).toBe(0);
      expect((await shop.pesakit.store.records.get(started.merchantReference))?.status).toBe(
        'pending',
      );
    });

    it("the middleware's returnUrls win over the receiver's; relative ones stay relative", async () => {
      const shop = await openShop(
        { returnUrls: { pending: '/orders/pending' } },
        { returnUrls: { ...returnUrls } },
      );
      const started = await checkout(shop);
      const answer = await returnTo(shop, `external_reference=${started.external_reference}`);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(
        `/orders/pending?merchant_reference=${started.merchantReference}`,
      );
    });

    it('without returnUrls it answers JSON instead of redirecting', async () => {
      const shop = await openShop();
      const started = await checkout(shop);
      const answer = await returnTo(shop, `external_reference=${started.external_reference}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/json/);
    });
  });

  describe(`${framework}: client mistakes get 4xx, never 5xx, and store nothing`, () => {
    it('413: a body over maxBodyBytes, declared or streamed, is refused while it is read', async () => {
      const shop = await openShop();
      const limit = shop.receiver.maxBodyBytes;
      const big = JSON.stringify({ padding: 'x'.repeat(limit) });
      const declared = await post(shop.callbackUrl, big);
      expect(declared.status).toBe(413);
      expect(await declared.json()).toEqual({
        message: `The callback body is larger than ${limit} bytes (the receiver's maxBodyBytes); the platform's callbacks are well under 1 KiB. Nothing was stored.`,
      });
      const chunks = Math.ceil((limit * 2) / 1024);
      const streamed = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < chunks; i++) controller.enqueue(new Uint8Array(1024).fill(32));
          controller.close();
        },
      });
      const answer = await fetch(shop.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: streamed,
        duplex: 'half',
      } as RequestInit);
      expect(answer.status).toBe(413);
    });

    it('415: a POST that is not JSON', async () => {
      const shop = await openShop();
      const answer = await post(shop.callbackUrl, 'status=true', { 'content-type': 'text/plain' });
      expect(answer.status).toBe(415);
    });

    it('422: a callback that fails validation, with per-field errors in the Laravel shape', async () => {
      const shop = await openShop();
      const bad = merchantCallback({
        controlNumber: '990000000002',
        paymentReference: 'ENG1',
        amount: 10,
      });
      const answer = await post(shop.callbackUrl, {
        ...bad,
        data: { ...bad.data, amount: 'lots' },
      });
      expect(answer.status).toBe(422);
      const body = (await answer.json()) as { message: string; errors: Record<string, string[]> };
      expect(body.errors['data.amount']?.length).toBeGreaterThan(0);
    });

    it('malformed JSON is a 4xx', async () => {
      const shop = await openShop();
      const answer = await post(shop.callbackUrl, '{"status": tru');
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    });

    it('404 for an unknown path under the mount point, 405 for a wrong method', async () => {
      const shop = await openShop();
      expect((await fetch(`${shop.app.url}/pesakit/nowhere`)).status).toBe(404);
      expect((await fetch(shop.callbackUrl, { method: 'PUT' })).status).toBe(405);
      expect((await fetch(`${shop.app.url}/pesakit/return`, { method: 'PUT' })).status).toBe(405);
      // POST /return is a checkout's settlement callback: validated like any other.
      expect((await post(`${shop.app.url}/pesakit/return`, {})).status).toBe(422);
    });

    it('HEAD /return answers as GET does, without a body', async () => {
      const shop = await openShop();
      const started = await shop.pesakit.collection.createCheckout({
        amount: 30_000,
        callback_url: `${shop.app.url}/pesakit/return`,
      });
      const url = `${shop.app.url}/pesakit/return?external_reference=${started.external_reference}`;
      const get = await fetch(url);
      const getBody = await get.text();
      const head = await fetch(url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getBody)));
      expect(await head.text()).toBe('');
      expect(JSON.parse(getBody)).toMatchObject({ status: 'pending', paid: false });
      const unknown = await fetch(`${shop.app.url}/pesakit/return?external_reference=EXT-NONE`, {
        method: 'HEAD',
      });
      expect(unknown.status).toBe(404);
      const put = await fetch(url, { method: 'PUT' });
      expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    });
  });

  describe(`${framework}: next to the app's own body parsing`, () => {
    it("with the app's own JSON parser in front, callbacks are still received and verified", async () => {
      const shop = await openShop({ appJsonParser: true });
      // The app's parser (Express: 100 KB limit) does not lift the receiver's limit (64 KiB).
      const big = JSON.stringify({ padding: 'x'.repeat(shop.receiver.maxBodyBytes) });
      expect((await post(shop.callbackUrl, big)).status).toBe(413);
      const payment = await pay(shop);
      await settle(payment.controlNumber, 'success');
      await shop.outcomes.next('paid', payment.merchantReference);
      const own = await post(`${shop.app.url}${shop.app.ownRoute}`, { order: 7 });
      expect(own.status).toBe(200);
      expect(await own.json()).toEqual(
        framework === 'express' ? { own: { order: 7 } } : { own: { parsedByApp: { order: 7 } } },
      );
    });

    it("the app's own routes keep their JSON parsing when pesakit is mounted", async () => {
      const shop = await openShop();
      const own = await post(`${shop.app.url}${shop.app.ownRoute}`, { order: 8 });
      expect(await own.json()).toEqual({ own: { order: 8 } });
    });
  });
}

export function merchantCallback(input: {
  controlNumber: string;
  paymentReference: string;
  amount: number;
  status?: boolean;
}) {
  return {
    message: 'Transaction processed',
    code: '200',
    status: input.status ?? true,
    description: 'Payment received',
    data: {
      providerType: 'MNO',
      providerName: 'Vodacom',
      amount: input.amount,
      paymentReference: input.paymentReference,
      payerMobile: '255754123456',
      transactionDate: '2026-11-23 10:00:00',
      transactionID: `TX${input.paymentReference}`,
      transactionChannel: 'USSD',
    },
    controlNumber: input.controlNumber,
    external_reference: null,
  };
}

export function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The engine's own settlement callback to the sandbox, as the engine would send it. */
async function postEngineCallback(
  sandboxUrl: string,
  input: { paymentReference: string; amount: number },
) {
  const {
    controlNumber: _c,
    external_reference: _e,
    ...engine
  } = merchantCallback({
    controlNumber: 'x',
    ...input,
  });
  const answer = await post(`${sandboxUrl}/api/sandbox/callback`, engine);
  if (answer.status !== 200)
    throw new Error(`engine callback: ${answer.status} ${await answer.text()}`);
}
