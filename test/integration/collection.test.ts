import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, NotFoundError, ValidationError } from '../../src/errors/index.js';
import type { WarningEvent } from '../../src/index.js';
import { merchantCallbackSchema } from '../../src/schemas/collection.js';
import { sendsInvalidOnPurpose } from '../helpers/openapi-contract.js';
import { json, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

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

const settle = (ref_id: string, outcome: 'success' | 'failed') =>
  harness.control('collection/settle', { ref_id, outcome });

describe('collection, MNO push: initiate → status → settle → status', () => {
  it('the store follows the transaction to success, found by every reference', async () => {
    const pesakit = harness.client();
    const payment = await pesakit.collection.initiateMno(
      { amount: 15_000, msisdn: '255754123456', callback_url: `${merchant.url}/paid` },
      { merchantReference: 'cart-42' },
    );
    expect(payment.status).toBe('pending');
    expect(payment.record).toMatchObject({
      status: 'pending',
      flow: 'mno',
      controlNumber: payment.controlNumber,
      paymentReference: payment.reference,
    });

    const before = await pesakit.collection.status(payment.controlNumber);
    expect(before.data.status).toBe('pending');

    await settle(payment.controlNumber, 'success');
    const after = await pesakit.collection.status(payment.reference);
    expect(after.data.status).toBe('success');
    expect(after.record?.status).toBe('success');

    for (const reference of ['cart-42', payment.controlNumber, payment.reference]) {
      expect((await pesakit.store.records.find({ value: reference }))?.status).toBe('success');
    }
  });

  it('a success for a different amount is not paid: the record goes to needs_review with the verdict (spec rule 5)', async () => {
    const pesakit = harness.client();
    const payment = await pesakit.collection.initiateMno(
      { amount: 15_000, msisdn: '255754123456' },
      { merchantReference: 'cart-short' },
    );
    // The engine reports success for 14,000: a short payment.
    const callback = await fetch(`${harness.url}/api/sandbox/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: 'Payment successful',
        code: '200',
        status: true,
        description: 'Settled',
        data: {
          providerType: 'MNO',
          providerName: 'Vodacom',
          amount: 14_000,
          paymentReference: payment.reference,
          payerMobile: '255754123456',
          transactionDate: '2024-06-01 12:30:00',
          transactionID: 'MP240601.1230.SHORT',
          transactionChannel: 'USSD',
        },
      }),
    });
    expect(callback.status).toBe(200);
    const pulled = await pesakit.collection.status(payment.controlNumber);
    expect(pulled.data).toMatchObject({ status: 'success', paid_amount: 14_000 });
    expect(pulled.record).toMatchObject({
      status: 'needs_review',
      review: { reason: 'amount_mismatch', evidence: { status: { paid_amount: 14_000 } } },
      effect: { status: 'due' },
    });
    expect(pulled.record?.review?.message).toMatch(/14000 TZS were paid .* asked for 15000 TZS/);
    expect(await pesakit.store.records.get('cart-short')).toEqual(pulled.record);
    // A second pull changes nothing: only a person leaves needs_review.
    const again = await pesakit.collection.status(payment.controlNumber);
    expect(again.record).toEqual(pulled.record);
  });

  it('the merchant callback arrives at callback_url with the engine payload and the references', async () => {
    const pesakit = harness.client();
    const payment = await pesakit.collection.initiateMno({
      amount: 7_500,
      msisdn: '255684000111',
      callback_url: `${merchant.url}/paid`,
    });
    await settle(payment.reference, 'success');
    await harness.sandbox.idle();
    const delivered = merchant.requests.map((r) =>
      merchantCallbackSchema.parse(JSON.parse(r.body)),
    );
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({
      status: true,
      controlNumber: payment.controlNumber,
      external_reference: null,
      data: { paymentReference: payment.reference, amount: 7_500, payerMobile: '255684000111' },
    });
  });

  it('a failed settlement moves the record to failed', async () => {
    const pesakit = harness.client();
    const bill = await pesakit.collection.initiateBank(
      { amount: 250_000 },
      { merchantReference: 'invoice-9' },
    );
    expect(bill.record.flow).toBe('bank');
    await settle(bill.controlNumber, 'failed');
    const result = await pesakit.collection.status(bill.controlNumber);
    expect(result.data.status).toBe('failed');
    expect((await pesakit.store.records.get('invoice-9'))?.status).toBe('failed');
  });

  it('pay_mobile with the right API key creates a pending collection; a wrong key is refused', async () => {
    const good = harness.client({ apiKey: 'sandbox-pay-mobile-key' });
    const payment = await good.collection.payMobile({ amount: 2_000, msisdn: '255713000111' });
    expect(payment.record).toMatchObject({ flow: 'pay_mobile', status: 'pending' });

    const bad = harness.client({ apiKey: 'not-the-key' });
    const error = await bad.collection
      .payMobile({ amount: 2_000, msisdn: '255713000111' }, { merchantReference: 'pm-bad' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((await bad.store.records.get('pm-bad'))?.status).toBe('failed');
  });
});

describe('a collection started without callback_url', () => {
  it('emits a no_callback_url warning event per call: only a pull will find its outcome', async () => {
    const pesakit = harness.client({ apiKey: 'sandbox-pay-mobile-key' });
    const warnings: WarningEvent[] = [];
    pesakit.on('warning', (event) => warnings.push(event));
    await pesakit.collection.initiateMno(
      { amount: 1_000, msisdn: '255754123456' },
      { merchantReference: 'no-url-1' },
    );
    await pesakit.collection.initiateBank({ amount: 1_000 }, { merchantReference: 'no-url-2' });
    await pesakit.collection.payMobile(
      { amount: 1_000, msisdn: '255754123456' },
      { merchantReference: 'no-url-3' },
    );
    await pesakit.collection.initiateMno(
      { amount: 1_000, msisdn: '255754123456', callback_url: `${merchant.url}/paid` },
      { merchantReference: 'with-url' },
    );
    expect(warnings.map((w) => [w.code, w.merchantReference])).toEqual([
      ['no_callback_url', 'no-url-1'],
      ['no_callback_url', 'no-url-2'],
      ['no_callback_url', 'no-url-3'],
    ]);
    expect(warnings[0]?.message).toMatch(/without callback_url.*only the reconciler/);
  });
});

describe('collection, secure checkout', () => {
  it('createCheckout stores the external_reference; the phone option attaches to the same record', async () => {
    const pesakit = harness.client();
    const checkout = await pesakit.collection.createCheckout(
      { amount: 30_000, callback_url: `${merchant.url}/return` },
      { merchantReference: 'checkout-1' },
    );
    expect(checkout.payment_url).toContain(checkout.payment_token);
    expect(checkout.record).toMatchObject({
      flow: 'secure',
      externalReference: checkout.external_reference,
      status: 'pending',
    });

    const paid = await pesakit.collection.checkoutMno({
      token: checkout.payment_token,
      msisdn: '255754123456',
    });
    expect(paid.external_reference).toBe(checkout.external_reference);
    const record = await pesakit.store.records.find({ value: checkout.external_reference });
    expect(record?.merchantReference).toBe('checkout-1');
    expect(record?.paymentReference).toBe(paid.reference);

    const session = await pesakit.collection.portalSession({ token: checkout.payment_token });
    expect(session.external_reference).toBe(checkout.external_reference);
    expect(session.session_id).toMatch(/^SES\w+$/);
    // A checkout names no phone when it is made: the pull that settles it names the operator.
    expect(record?.provider).toBeNull();
    await settle(paid.reference, 'success');
    await pesakit.collection.status(paid.reference);
    expect(await pesakit.store.records.get('checkout-1')).toMatchObject({
      status: 'success',
      provider: 'vodacom',
      finalAt: expect.any(Date),
    });
  });

  it('an unknown payment token is refused', async () => {
    const pesakit = harness.client();
    const error = await pesakit.collection
      .portalSession({ token: 'no-such-token' })
      .catch((e) => e);
    expect([401, 404]).toContain(error.status);
  });
});

describe('collection: errors map to their classes', () => {
  it('an unknown ref_id is a NotFoundError', async () => {
    await expect(harness.client().collection.status('000000000000')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('an amount above the sandbox maximum is a ValidationError naming amount', async () => {
    sendsInvalidOnPurpose(); // the document says the sandbox's maximum; the SDK cannot know it
    const error = await harness
      .client()
      .collection.initiateMno({ amount: 10_000_001, msisdn: '255754123456' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys(error.errors)).toEqual(['amount']);
  });

  it('wrong credentials are an AuthenticationError', async () => {
    const pesakit = harness.client({
      credentials: { collection: { email: accounts.collection.email, password: 'nope-nope' } },
    });
    await expect(pesakit.collection.initiateBank({ amount: 1000 })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });

  it('the provider test endpoint signs a sample token; an unknown provider is a NotFoundError', async () => {
    const pesakit = harness.client();
    const sample = await pesakit.collection.testProvider('vodacom');
    expect(sample.provider).toBe('vodacom');
    expect(sample.hash).toMatch(/^[0-9a-f]{64}$/);
    await expect(pesakit.collection.testProvider('nokia' as 'vodacom')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('logout revokes the collection token', async () => {
    const pesakit = harness.client();
    const { token } = await pesakit.collection.login();
    await pesakit.collection.logout();
    const response = await fetch(`${harness.url}/api/sandbox/transaction/status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ref_id: 'x' }),
    });
    expect(response.status).toBe(401);
  });
});
