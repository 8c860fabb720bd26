import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../src/errors/index.js';
import { merchantReferenceParam } from '../../src/resources/callback-url.js';
import { json, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

// Orphans (docs/callbacks.md): a callback whose platform references match nothing yet (its initiation
// timed out) still names its record, because pesakit put the merchant reference on the
// callback_url as `pesakit_ref`.

let harness: Harness;
let merchant: RawServer;
beforeAll(async () => {
  harness = await startHarness();
  merchant = await startRawServer((_request, response) => json(response, 200, { received: true }));
});
afterAll(async () => {
  await harness.close();
  await merchant.close();
});
afterEach(() => {
  merchant.requests.length = 0;
});

const settle = (ref_id: string) =>
  harness.control('collection/settle', { ref_id, outcome: 'success' });

/** The query of every callback the merchant received. */
async function deliveredQueries(): Promise<URLSearchParams[]> {
  await harness.sandbox.idle();
  return merchant.requests.map((r) => new URL(r.path, merchant.url).searchParams);
}

describe('the callback arrives at a URL carrying pesakit_ref=<merchantReference>', () => {
  it('initiateMno: the merchant query parameters are kept', async () => {
    const pesakit = harness.client();
    const payment = await pesakit.collection.initiateMno(
      { amount: 7_500, msisdn: '255754123456', callback_url: `${merchant.url}/paid?order=42` },
      { merchantReference: 'cart-ref-1' },
    );
    await settle(payment.controlNumber);
    const [query, ...more] = await deliveredQueries();
    expect(more).toHaveLength(0);
    expect(query?.get('pesakit_ref')).toBe('cart-ref-1');
    expect(query?.get('order')).toBe('42');
  });

  it('initiateBank and payMobile, with a generated merchant reference', async () => {
    const pesakit = harness.client({ apiKey: 'sandbox-pay-mobile-key' });
    const bill = await pesakit.collection.initiateBank({
      amount: 25_000,
      callback_url: `${merchant.url}/bank`,
    });
    const mobile = await pesakit.collection.payMobile({
      amount: 2_000,
      msisdn: '255713000111',
      callback_url: `${merchant.url}/mobile`,
    });
    await settle(bill.controlNumber);
    await settle(mobile.controlNumber);
    const refs = (await deliveredQueries()).map((q) => q.get(merchantReferenceParam));
    expect(refs.sort()).toEqual([bill.merchantReference, mobile.merchantReference].sort());
  });

  it('createCheckout: the checkout carries the reference too', async () => {
    const pesakit = harness.client();
    const checkout = await pesakit.collection.createCheckout(
      { amount: 30_000, callback_url: `${merchant.url}/return?pesakit_ref=forged` },
      { merchantReference: 'checkout-ref-1' },
    );
    await pesakit.collection.checkoutMno({ token: checkout.payment_token, msisdn: '255754123456' });
    await settle(checkout.controlNumber);
    const queries = await deliveredQueries();
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) expect(query.getAll('pesakit_ref')).toEqual(['checkout-ref-1']);
  });

  it('a callback_url that is not a URL is still refused by its schema, nothing stored', async () => {
    const pesakit = harness.client();
    const error = await pesakit.collection
      .initiateMno(
        { amount: 1_000, msisdn: '255754123456', callback_url: 'not a url' },
        { merchantReference: 'bad-callback' },
      )
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(Object.keys(error.errors)).toEqual(['callback_url']);
    expect(await pesakit.store.records.get('bad-callback')).toBeUndefined();
  });
});
