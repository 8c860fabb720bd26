import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { verifyCheckoutReturn } from '../../src/client.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { closedAfterEach, sandboxClient } from '../helpers/sandbox-lifetime.js';

// With docs/callbacks.md's own route for the checkout return
// without a receiver. When the platform did not answer the status pull (down, a timeout, a
// reset), verifyCheckoutReturn threw, so the merchant's route became a 500 error page for a
// customer who may well have paid — where the receiver's own `GET <mount>/return` answers
// "pending" for the same case. Not proven is pending; the reconciler settles it later.

const opened = closedAfterEach<Harness>();

describe('verifyCheckoutReturn while the platform does not answer', () => {
  it("answers pending with the stored checkout, and the docs' Express route redirects", async () => {
    const harness = await startHarness();
    opened.current = harness;
    const store = new MemoryReferenceStore();
    const created = await harness
      .client({ store })
      .collection.createCheckout(
        { amount: 30_000, callback_url: 'https://shop.example/paid' },
        { merchantReference: 'cart-7' },
      );
    await harness.close();
    opened.current = undefined;

    // The same shop, its platform now unreachable (the sandbox's port is closed).
    const pesakit = sandboxClient('http://127.0.0.1:9', {
      credentials: { collection: accounts.collection },
      store,
      maxRetries: 0,
    });
    const result = await verifyCheckoutReturn(pesakit, {
      external_reference: created.external_reference,
      status: 'success',
    });
    expect(result).toMatchObject({ outcome: 'pending', changed: false });
    expect(result.record?.merchantReference).toBe('cart-7');
    expect((await store.records.get('cart-7'))?.status).toBe('pending');

    // docs/callbacks.md, "Without a receiver, in your own route", as written.
    const app = express();
    app.get('/paid', async (req, res) => {
      const { outcome, record } = await verifyCheckoutReturn(pesakit, req.query);
      res.redirect(
        303,
        outcome === 'paid' ? `/orders/${record?.merchantReference}` : '/orders/pending',
      );
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(
        `http://127.0.0.1:${port}/paid?external_reference=${created.external_reference}`,
        { redirect: 'manual' },
      );
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/orders/pending');
    } finally {
      server.close();
    }
  }, 30_000);
});
