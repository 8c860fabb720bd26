import { createHash, createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDER_TEST_SECRET } from '../../src/sandbox/routes/provider-test.js';
import { bearer, field, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
let token: string;
beforeEach(async () => {
  s = await startSandbox();
  token = await s.account('collection', 'shop@duka.tz');
});
afterEach(() => s.close());

const initiate = (channel: 'mno' | 'bank', body: unknown, auth = token) =>
  s.call('POST', `/api/sandbox/initiate-payment/${channel}/`, body, bearer(auth));
const status = (refId: unknown, auth = token) =>
  s.call('POST', '/api/sandbox/transaction/status', { ref_id: refId }, bearer(auth));

describe('initiate-payment mno and bank create pending transactions with controlNumber and reference', () => {
  it('mno: pending, 12-digit control number starting 99, engine reference, provider detected', async () => {
    const answer = await initiate('mno', { amount: 15_000, msisdn: '255754123456' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'pending',
      amount: 15_000,
      controlNumber: expect.stringMatching(/^99\d{10}$/),
      reference: expect.stringMatching(/^ENG/),
    });
    const found = await status(field(answer, 'controlNumber'));
    expect(found.body).toMatchObject({
      data: { channel: 'mno', provider: 'vodacom', status: 'pending' },
    });
  });

  it('bank: pending without msisdn; found by either reference', async () => {
    const answer = await initiate('bank', {
      amount: 50_000,
      callback_url: 'https://shop.example/cb',
    });
    expect(answer.status).toBe(200);
    const byControl = await status(field(answer, 'controlNumber'));
    const byReference = await status(field(answer, 'reference'));
    expect(byControl.body).toEqual(byReference.body);
    expect(byControl.body).toMatchObject({ data: { channel: 'bank', msisdn: null } });
  });

  it('rejects a bad body with 422 naming the field, and without a token with 401', async () => {
    const bad = await initiate('mno', { amount: 100, msisdn: '255701123456' });
    expect(bad.status).toBe(422);
    expect(field(bad, 'errors')).toHaveProperty('msisdn');
    const url = await initiate('bank', { amount: 100, callback_url: 'ftp://x' });
    expect(field(url, 'errors')).toHaveProperty('callback_url');
    const anonymous = await s.call('POST', '/api/sandbox/initiate-payment/bank/', { amount: 100 });
    expect(anonymous.status).toBe(401);
  });
});

describe('transaction/status {ref_id}: 404 unknown, 422 missing ref_id', () => {
  it('answers unknown with 404 and missing with 422', async () => {
    expect((await status('990000000000')).status).toBe(404);
    const missing = await s.call('POST', '/api/sandbox/transaction/status', {}, bearer(token));
    expect(missing.status).toBe(422);
    expect(field(missing, 'errors')).toHaveProperty('ref_id');
  });

  it('does not show one merchant’s transaction to another', async () => {
    const answer = await initiate('bank', { amount: 1000 });
    const other = await s.account('collection', 'other@duka.tz');
    expect((await status(field(answer, 'controlNumber'), other)).status).toBe(404);
  });
});

describe('pay_mobile: an API key is optional (x-api-key)', () => {
  const body = { amount: 2000, msisdn: '255684123456' };
  it('accepts no key and the right key; refuses a wrong key with 401', async () => {
    expect((await s.call('POST', '/api/sandbox/pay_mobile', body)).status).toBe(200);
    const right = await s.call('POST', '/api/sandbox/pay_mobile', body, {
      'x-api-key': 'sandbox-pay-mobile-key',
    });
    expect(right.body).toMatchObject({ status: 'pending', controlNumber: expect.any(String) });
    const wrong = await s.call('POST', '/api/sandbox/pay_mobile', body, { 'x-api-key': 'guess' });
    expect(wrong.status).toBe(401);
  });
});

describe('merchant/test-<provider>: a sample signed token and its hash', () => {
  it('signs base64url(payload).base64url(HMAC-SHA256) and hashes the token with SHA-256', async () => {
    const answer = await s.call('POST', '/api/sandbox/merchant/test-vodacom');
    expect(answer.status).toBe(200);
    const {
      token: sample,
      hash,
      provider,
    } = answer.body as { token: string; hash: string; provider: string };
    expect(provider).toBe('vodacom');
    const [payload, signature] = sample.split('.') as [string, string];
    expect(createHmac('sha256', PROVIDER_TEST_SECRET).update(payload).digest('base64url')).toBe(
      signature,
    );
    expect(createHash('sha256').update(sample).digest('hex')).toBe(hash);
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toMatchObject({
      provider: 'vodacom',
    });
  });

  it('answers an unknown provider with 404', async () => {
    expect((await s.call('POST', '/api/sandbox/merchant/test-mpesa-kenya')).status).toBe(404);
  });
});

describe('secure checkout: initiate-secure-payment → payment_url; mno/ and portal-session take the payment token', () => {
  const secure = async () => {
    const answer = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
      amount: 30_000,
      callback_url: 'https://shop.example/return',
      description: 'Order 42',
    });
    expect(answer.status).toBe(200);
    return answer.body as {
      payment_url: string;
      payment_token: string;
      external_reference: string;
      controlNumber: string;
    };
  };

  it('serves a real HTML page at payment_url', async () => {
    const checkout = await secure();
    expect(checkout.payment_url).toBe(`${s.url}/api/sandbox/checkout/${checkout.payment_token}`);
    const page = await fetch(checkout.payment_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain(checkout.external_reference);
  });

  it('pays by card session: portal-session, then the card; status shows success and the callback_url', async () => {
    const checkout = await secure();
    const session = await s.call('POST', '/api/sandbox/portal-session', {
      token: checkout.payment_token,
    });
    expect(session.body).toMatchObject({
      session_id: expect.any(String),
      external_reference: checkout.external_reference,
    });
    const card = await s.call('POST', `/api/sandbox/checkout/${checkout.payment_token}/card`, {
      session_id: field(session, 'session_id'),
      card_number: '4242424242424242',
    });
    expect(card.body).toMatchObject({ status: 'success' });
    const state = await s.call('GET', `/api/sandbox/checkout/${checkout.payment_token}/status`);
    expect(state.body).toEqual({
      status: 'success',
      external_reference: checkout.external_reference,
      callback_url: 'https://shop.example/return',
    });
    // Paid is final: the token cannot pay twice.
    expect(
      (await s.call('POST', '/api/sandbox/portal-session', { token: checkout.payment_token }))
        .status,
    ).toBe(409);
  });

  it('declines a card ending 0002 and refuses a session that is not the checkout’s', async () => {
    const checkout = await secure();
    const session = await s.call('POST', '/api/sandbox/portal-session', {
      token: checkout.payment_token,
    });
    const foreign = await s.call('POST', `/api/sandbox/checkout/${checkout.payment_token}/card`, {
      session_id: 'SESNOTMINE',
      card_number: '4242424242424242',
    });
    expect(foreign.status).toBe(422);
    const declined = await s.call('POST', `/api/sandbox/checkout/${checkout.payment_token}/card`, {
      session_id: field(session, 'session_id'),
      card_number: '4000000000000002',
    });
    expect(declined.body).toMatchObject({ status: 'failed' });
  });

  it('pays by phone through mno/ with the token; an unknown token is 401', async () => {
    const checkout = await secure();
    const phone = await s.call('POST', '/api/sandbox/mno/', {
      token: checkout.payment_token,
      msisdn: '255714123456',
    });
    expect(phone.body).toMatchObject({
      status: 'pending',
      external_reference: checkout.external_reference,
    });
    expect(s.sandbox.inspect.collection(checkout.controlNumber)).toMatchObject({
      provider: 'tigo',
      msisdn: '255714123456',
    });
    const unknown = await s.call('POST', '/api/sandbox/mno/', {
      token: 'nope',
      msisdn: '255714123456',
    });
    expect(unknown.status).toBe(401);
    const missing = await s.call('POST', '/api/sandbox/portal-session', {});
    expect(field(missing, 'errors')).toHaveProperty('token');
  });
});
