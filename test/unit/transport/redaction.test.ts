import { inspect } from 'node:util';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import { redactBody, redactHeaders, redactUrl } from '../../../src/internal/redaction.js';
import { airtimeUser, origin, purchase } from './platform.js';

const password = 'pw-Sup3rSecret-9431';
const loginToken = 'tok-Z8f1n2q9-login-secret';
const setToken = 'tok-Q4w8-set-by-hand';
const apiKey = 'key-H7k2-api-secret';
const cookie = 'laravel_session=ck-P3x9-cookie-secret';
const accessToken = 'at-V6m1-access-secret';
const paymentToken = 'pt-K2v7-checkout-secret';
const secrets = [password, loginToken, setToken, apiKey, cookie, accessToken, paymentToken];

/** Everything reachable from a value as text: own fields, error messages, stacks and causes. */
function everything(value: unknown, seen = new Set<unknown>()): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object' && typeof value !== 'function') return String(value);
  if (seen.has(value)) return '';
  seen.add(value);
  if (value instanceof Headers) {
    const pairs: string[] = [];
    value.forEach((v, k) => {
      pairs.push(`${k}: ${v}`);
    });
    return pairs.join('\n');
  }
  const parts: string[] = [];
  if (value instanceof Error)
    parts.push(value.message, value.stack ?? '', everything(value.cause, seen));
  for (const key of Object.getOwnPropertyNames(value)) {
    parts.push(key, everything((value as Record<string, unknown>)[key], seen));
  }
  return parts.join('\n');
}

function capture(t: Transport): unknown[] {
  const captured: unknown[] = [];
  for (const name of ['request', 'response', 'retry', 'error'] as const) {
    t.events.on(name, (event) => captured.push(event));
  }
  return captured;
}

function expectNoSecret(text: string) {
  for (const secret of secrets) expect(text).not.toContain(secret);
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Secrets stay secret: Authorization, passwords, tokens and API keys are redacted', () => {
  it('a login, a bearer call, a 401, a failed re-login: no secret in any event or error', async () => {
    nock(origin)
      .post('/api/sandbox/airtime/login')
      .reply(200, { token: loginToken, token_type: 'Bearer', user: airtimeUser })
      .get('/api/sandbox/airtime/user')
      .reply(401, { message: 'Unauthenticated.' })
      .post('/api/sandbox/airtime/login')
      .reply(500, { message: 'Server Error' });
    const t = new Transport({
      baseUrl: origin,
      credentials: { airtime: { email: 'duka@example.co.tz', password } },
      apiKey,
      maxRetries: 0,
    });
    const events = capture(t);
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(events.length).toBeGreaterThan(4);
    const text = everything(events) + everything(error);
    expect(text).toContain('[redacted]');
    expectNoSecret(text);
  });

  it('a login answer of the wrong shape: the token is redacted from ResponseValidationError', async () => {
    nock(origin).post('/api/sandbox/airtime/login').reply(200, { token: loginToken });
    const t = new Transport({
      baseUrl: origin,
      credentials: { airtime: { email: 'duka@example.co.tz', password } },
    });
    const events = capture(t);
    const error = await t.authenticate('airtime').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ResponseValidationError', body: { token: '[redacted]' } });
    expectNoSecret(everything(error) + everything(events));
  });

  it('a bearer token and an API key on a failing money call never reach events or errors', async () => {
    nock(origin)
      .post('/api/sandbox/airtime/customer/payments')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
      .post('/api/sandbox/pay_mobile')
      .reply(500, { message: 'Server Error' });
    const t = new Transport({ baseUrl: origin, apiKey });
    t.setToken('airtime', setToken);
    const events = capture(t);
    const first = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    const second = await t.request('payMobile', { body: purchase }).catch((e: unknown) => e);
    expect(first).toMatchObject({ name: 'AmbiguousOutcomeError' });
    expect(second).toMatchObject({ name: 'ServerError' });
    expectNoSecret(everything(events) + everything(first) + everything(second));
  });

  it('a 500 answering with Set-Cookie and secrets in its body: redacted from the error event and ApiError', async () => {
    nock(origin)
      .get('/api/sandbox/airtime/user')
      .reply(
        500,
        { message: 'Server Error', token: loginToken, password, access_token: accessToken },
        { 'set-cookie': cookie, 'x-request-id': 'req-7' },
      );
    const t = new Transport({ baseUrl: origin, maxRetries: 0 });
    t.setToken('airtime', setToken);
    const events = capture(t);
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ServerError',
      requestId: 'req-7',
      body: {
        message: 'Server Error',
        token: '[redacted]',
        password: '[redacted]',
        access_token: '[redacted]',
      },
    });
    expect((error as { headers: Headers }).headers.get('set-cookie')).toBe('[redacted]');
    expect(events.length).toBe(3);
    expectNoSecret(everything(events) + everything(error));
  });

  it('a refused login body keeps no password in the RequestValidationError', async () => {
    const t = new Transport({
      baseUrl: origin,
      credentials: { airtime: { email: 'not-an-email', password } },
    });
    const error = await t.authenticate('airtime').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RequestValidationError' });
    expectNoSecret(everything(error));
  });
});

describe('Secret values echoed by the platform or a proxy are scrubbed, whatever key holds them', () => {
  it('a 401 whose message quotes the bearer token: not in the message, stack, inspect or events', async () => {
    nock(origin)
      .get('/api/sandbox/airtime/user')
      .reply(401, { message: `Token ${setToken} is revoked.` }, { 'www-authenticate': setToken });
    const t = new Transport({ baseUrl: origin, maxRetries: 0 });
    t.setToken('airtime', setToken);
    const events = capture(t);
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AuthenticationError', status: 401 });
    expect((error as Error).message).toContain('Token [redacted] is revoked.');
    expectNoSecret(everything(error) + everything(events) + inspect(error, { depth: 9 }));
  });

  it('a 500 page echoing the login body: the password is scrubbed, here and in the retry event', async () => {
    const page = `<html><body>Error: {"email":"duka@example.co.tz","password":"${password}"}</body></html>`;
    nock(origin).post('/api/sandbox/airtime/login').times(2).reply(500, page);
    const t = new Transport({
      baseUrl: origin,
      credentials: { airtime: { email: 'duka@example.co.tz', password } },
      apiKey,
      maxRetries: 1,
      retryDelay: { minMs: 1, maxMs: 1 },
    });
    const events = capture(t);
    const error = await t.authenticate('airtime').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ServerError', status: 500 });
    expect(String((error as { body: unknown }).body)).toContain('"password":"[redacted]"');
    expect(events.some((e) => (e as { delayMs?: number }).delayMs !== undefined)).toBe(true);
    expectNoSecret(everything(error) + everything(events) + inspect(error, { depth: 9 }));
  });

  it('a 422 echoing the API key under a field message: scrubbed, the message kept', async () => {
    nock(origin)
      .post('/api/sandbox/pay_mobile')
      .reply(422, { message: 'Invalid.', errors: { key: [`The key ${apiKey} is unknown.`] } });
    const t = new Transport({ baseUrl: origin, apiKey });
    const error = await t.request('payMobile', { body: purchase }).catch((e: unknown) => e);
    expect((error as { errors: unknown }).errors).toEqual({
      key: ['The key [redacted] is unknown.'],
    });
    expectNoSecret(everything(error) + inspect(error, { depth: 9 }));
  });
});

describe('A URL the platform answers with carries no token, however it is spelled', () => {
  const checkout = { amount: 1000, callback_url: 'https://merchant.example/paid' };

  it('a money call redirected to its checkout: the payment token is in no error or event', async () => {
    nock(origin)
      .post('/api/sandbox/initiate-secure-payment')
      .reply(303, '', {
        location: `${origin}/api/sandbox/Checkout;v=2/${paymentToken}?access_token=${accessToken}`,
      });
    const t = new Transport({ baseUrl: origin });
    const events = capture(t);
    const error = await t.request('initiateSecure', { body: checkout }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AmbiguousOutcomeError' });
    expect((error as Error).message).toContain('/api/sandbox/Checkout;v=2/[redacted]');
    expectNoSecret(everything(events) + everything(error) + inspect(error, { depth: 9 }));
  });

  it('a redirect with a token in its query: redacted from the response event and the ApiError', async () => {
    nock(origin)
      .get('/api/sandbox/airtime/user')
      .reply(302, '', { location: `/login?next=%2Fuser&%54oken=${accessToken}` });
    const t = new Transport({ baseUrl: origin, maxRetries: 0 });
    t.setToken('airtime', setToken);
    const events = capture(t);
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 302 });
    expect((error as { headers: Headers }).headers.get('location')).toBe(
      '/login?next=%2Fuser&%54oken=[redacted]',
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        responseHeaders: expect.objectContaining({
          location: '/login?next=%2Fuser&%54oken=[redacted]',
        }),
      }),
    );
    expectNoSecret(everything(events) + everything(error));
  });

  it("an answer of the wrong shape: its payment_url's token is redacted from the error", async () => {
    nock(origin)
      .post('/api/sandbox/initiate-secure-payment')
      .reply(200, { payment_url: `${origin}/api/sandbox/checkout/${paymentToken}` });
    const t = new Transport({ baseUrl: origin });
    const events = capture(t);
    const error = await t.request('initiateSecure', { body: checkout }).catch((e: unknown) => e);
    expect(everything(error)).toContain(`${origin}/api/sandbox/checkout/[redacted]`);
    expectNoSecret(everything(events) + everything(error) + inspect(error, { depth: 9 }));
  });
});

describe('The redaction rules', () => {
  it('replaces credential headers and keeps the rest', () => {
    const headers = new Headers({
      authorization: `Bearer ${setToken}`,
      'x-api-key': apiKey,
      'x-control-key': 'control-key',
      'x-engine-key': 'engine-key',
      cookie: 'session=1',
      accept: 'application/json',
    });
    expect(redactHeaders(headers)).toEqual({
      authorization: '[redacted]',
      'x-api-key': '[redacted]',
      'x-control-key': '[redacted]',
      'x-engine-key': '[redacted]',
      cookie: '[redacted]',
      accept: 'application/json',
    });
  });

  it('replaces secret string values deep in a body, but keeps Laravel field messages', () => {
    const body = {
      token: loginToken,
      user: { password, name: 'Duka' },
      list: [{ payment_token: 'pt' }],
      errors: { password: ['The password field is required.'] },
    };
    expect(redactBody(body)).toEqual({
      token: '[redacted]',
      user: { password: '[redacted]', name: 'Duka' },
      list: [{ payment_token: '[redacted]' }],
      errors: { password: ['The password field is required.'] },
    });
  });

  it.each([
    ['/user?token=s3cret', '/user?token=[redacted]'],
    ['/user?a=1&access_token=s3cret&b=2', '/user?a=1&access_token=[redacted]&b=2'],
    ['/user?TOKEN=s3cret', '/user?TOKEN=[redacted]'],
    ['/user?%74oken=s3cret', '/user?%74oken=[redacted]'],
    ['/user?%2574oken=s3cret', '/user?%2574oken=[redacted]'],
    ['/user?token=s1&token=s2', '/user?token=[redacted]&token=[redacted]'],
    ['/user?token[]=s3cret', '/user?token[]=[redacted]'],
    ['/user?x=1;password=s3cret', '/user?x=1;password=[redacted]'],
    ['/user;token=s3cret/x', '/user;token=[redacted]/x'],
    ['/user%3Ftoken%3Ds3cret', '/user?token=[redacted]'],
    ['/api/sandbox/checkout/s3cret/status', '/api/sandbox/checkout/[redacted]/status'],
    ['/api/sandbox/checkout;x/s3cret', '/api/sandbox/checkout;x/[redacted]'],
    ['/api/sandbox/check%6Fut/s3cret', '/api/sandbox/checkout/[redacted]'],
    ['/api/sandbox/check%256Fut/s3cret', '/api/sandbox/checkout/[redacted]'],
    ['/api/sandbox/checkout/%73%33cret', '/api/sandbox/checkout/[redacted]'],
    ['//api/sandbox//checkout//s3cret/', '//api/sandbox//checkout//[redacted]/'],
    ['/api/sandbox/checkout\\s3cret', '/api/sandbox/checkout\\[redacted]'],
    ['/api/sandbox/checkout/./s3cret', '/api/sandbox/checkout/./[redacted]'],
    ['/api/sandbox/checkout/x/../s3cret', '/api/sandbox/checkout/[redacted]/../[redacted]'],
    ['/api/sandbox/checkout#/s3cret', '/api/sandbox/checkout#/[redacted]'],
    ['/api/sandbox/%FF/check%6Fut/s3cret%zz', '/api/sandbox/%FF/checkout/[redacted]'],
    ['/api/sandbox/x%FF%2F%63heckout/s3cret', '/api/sandbox/x%FF/checkout/[redacted]'],
    ['https://pay.example/checkout/s3cret?id=1', 'https://pay.example/checkout/[redacted]?id=1'],
  ])('redacts %s as %s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });

  it('returns a URL without a secret as it was, encoded or not', () => {
    for (const url of [
      '/api/sandbox/transaction/status?x=%2F',
      '/api/sandbox/%5Fcontrol/records?status=pending&page=2',
      'https://checkout.example/pay?tokens=1&reference=ENG-1',
      '',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('shows nothing of a path still percent-encoded after every decoding round', () => {
    const deep = `/api/sandbox/%${'25'.repeat(8)}63heckout/s3cret`;
    expect(redactUrl(`${deep}?token=s3cret`)).toBe('[redacted]?token=[redacted]');
  });

  it('redacts the URL in a Location header and a body key ending in url', () => {
    const headers = new Headers({ location: '/checkout/s3cret', link: '</checkout/s3cret>' });
    expect(redactHeaders(headers)).toEqual({
      location: '/checkout/[redacted]',
      link: '</checkout/s3cret>',
    });
    expect(redactBody({ payment_url: '/checkout/s3cret', note: '/checkout/s3cret' })).toEqual({
      payment_url: '/checkout/[redacted]',
      note: '/checkout/s3cret',
    });
  });
});
