import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { pesakitExpress } from '../../src/express.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import { merchantCallback } from '../callbacks/payloads.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

// Mounting pesakit/express the ways Express apps mount
// middleware. Only `app.use('/pesakit', …)` worked:
// - as a route handler, `app.post('/pesakit/callback', pesakitExpress(receiver))`, Express
//   does not strip the route's path from req.url, so every callback was a 404 ("Nothing at
//   /pesakit/callback") and the platform's retries ran out;
// - at the root, `app.use(pesakitExpress(receiver))`, it answered 404 to every other route of
//   the shop (`GET /orders`): the merchant's own routes must stay unaffected.

let harness: Harness;
const receivers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  await harness?.close();
});

async function shop(mount: (app: Express, middleware: express.RequestHandler) => void) {
  harness ??= await startHarness();
  const pesakit = harness.client({ store: new MemoryReferenceStore() });
  const receiver = pesakit.createCallbackReceiver({});
  receivers.push(receiver);
  const app = express();
  mount(app, pesakitExpress(receiver));
  app.get('/orders', (_req, res) => {
    res.json({ orders: [] });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receivers.push({ close: async () => void server.close() });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const payment = await pesakit.collection.initiateMno(
    { amount: 15_000, msisdn: '255754123456' },
    { merchantReference: `order-${receivers.length}` },
  );
  const callback = JSON.stringify(
    merchantCallback({
      paymentReference: payment.reference,
      controlNumber: payment.controlNumber,
      amount: 15_000,
    }),
  );
  return { url, callback, pesakit };
}

const post = (url: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('pesakit/express mounted as Express apps mount middleware', () => {
  it('as route handlers: app.post(<path>/callback), app.get(<path>/return)', async () => {
    const { url, callback } = await shop((app, middleware) => {
      app.post('/pesakit/callback', middleware);
      app.get('/pesakit/return', middleware);
    });
    const answer = await post(`${url}/pesakit/callback`, callback);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, duplicate: false });
    const back = await fetch(`${url}/pesakit/return?external_reference=EXT-NOT-OURS`);
    expect(back.status).toBe(404);
    expect(await back.json()).toMatchObject({ status: 'not_found' });
    expect((await fetch(`${url}/orders`)).status).toBe(200);
  });

  it('under a splat route: app.all(<path>/*splat)', async () => {
    const { url, callback } = await shop((app, middleware) => {
      app.all('/hooks/pesakit/*splat', middleware);
    });
    const answer = await post(`${url}/hooks/pesakit/callback?pesakit_ref=x`, callback);
    expect(answer.status).toBe(200);
  });

  it("at the root: /callback and /return are pesakit's, the shop's own routes still answer", async () => {
    const { url, callback } = await shop((app, middleware) => {
      app.use(middleware);
    });
    expect((await post(`${url}/callback`, callback)).status).toBe(200);
    const orders = await fetch(`${url}/orders`);
    expect(orders.status).toBe(200);
    expect(await orders.json()).toEqual({ orders: [] });
    // Nothing of the app's there: Express's own 404, not pesakit's.
    const missing = await fetch(`${url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toMatch(/receiver/);
  });

  it('under its own path, unchanged: everything there is the receiver’s', async () => {
    const { url, callback } = await shop((app, middleware) => {
      app.use('/pesakit', middleware);
    });
    expect((await post(`${url}/pesakit/callback`, callback)).status).toBe(200);
    const other = await fetch(`${url}/pesakit/orders`);
    expect(other.status).toBe(404);
    expect(await other.text()).toMatch(/receiver answers/);
  });
});
