import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import {
  isInsufficientFundsError,
  isRequestValidationError,
  isResponseValidationError,
  isValidationError,
} from '../../../src/errors/index.js';
import { airtimeUser, origin, purchase, recordEvents } from './platform.js';

const purchasePath = '/api/sandbox/airtime/customer/payments';

function transport() {
  const t = new Transport({ baseUrl: origin, maxRetries: 0 });
  t.setToken('airtime', 'tok');
  t.setToken('collection', 'tok');
  return t;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('A request the platform would reject is refused before sending', () => {
  it('an invalid purchase is a RequestValidationError naming the field; nothing is sent', async () => {
    const scope = nock(origin).post(purchasePath).reply(200, {});
    const t = transport();
    const events = recordEvents(t);
    const error = await t
      .request('airtimePurchase', { body: { msisdn: '0744123456', amount: -5 } })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(Object.keys((error as { errors: object }).errors).sort()).toEqual(['amount', 'msisdn']);
    expect((error as Error).message).toMatch(/Nothing was sent/);
    expect(events.request).toHaveLength(0);
    expect(scope.isDone()).toBe(false);
  });

  it('a missing body is reported as such', async () => {
    const t = transport();
    const error = await t.request('airtimePurchase').catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as { errors: object }).errors).toHaveProperty('body');
  });

  it('a body for an endpoint that takes none is refused', async () => {
    const t = transport();
    const error = await t
      .request('airtimeUser', { body: { x: 1 } as never })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
  });

  it('a path parameter that would leave its segment ("..") is refused', async () => {
    const t = transport();
    const error = await t
      .request('providerTest', { params: { provider: '..' } })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as { errors: object }).errors).toHaveProperty(['params.provider']);
  });

  it('a missing path parameter is refused', async () => {
    const error = await transport()
      .request('providerTest')
      .catch((e: unknown) => e);
    expect((error as { errors: object }).errors).toHaveProperty(['params.provider']);
  });

  it('GET endpoints send no body and no content-type', async () => {
    nock(origin)
      .get('/api/sandbox/airtime/user')
      .matchHeader('content-type', (value) => value === undefined)
      .reply(200, (_uri, body) => ({ user: airtimeUser, echoed: body }));
    const answer = await transport().request('airtimeUser');
    expect((answer as { echoed?: unknown }).echoed).toBe('');
  });
});

describe('Every response body is validated by its schema', () => {
  it('a 2xx body of the wrong shape is a ResponseValidationError with the zod issues', async () => {
    nock(origin).post(purchasePath).reply(200, { state: 'ok' });
    const error = await transport()
      .request('airtimePurchase', { body: purchase })
      .catch((e: unknown) => e);
    expect(isResponseValidationError(error)).toBe(true);
    const issues = (error as { issues: { path: unknown[] }[] }).issues;
    expect(issues.map((issue) => issue.path[0])).toEqual(
      expect.arrayContaining(['status', 'message']),
    );
    expect(error).toMatchObject({ status: 200, body: { state: 'ok' } });
  });

  it('a 2xx body that is not JSON is a ResponseValidationError', async () => {
    nock(origin).post(purchasePath).reply(200, '<html>proxy</html>');
    const error = await transport()
      .request('airtimePurchase', { body: purchase })
      .catch((e: unknown) => e);
    expect(isResponseValidationError(error)).toBe(true);
  });

  it('unknown extra fields pass through', async () => {
    nock(origin).post(purchasePath).reply(200, { status: 'success', message: 'ok', extra: 42 });
    const answer = await transport().request('airtimePurchase', { body: purchase });
    expect(answer).toEqual({ status: 'success', message: 'ok', extra: 42 });
  });
});

describe('HTTP errors map to their classes', () => {
  it('a Laravel 422 is a ValidationError with the field map', async () => {
    nock(origin)
      .post(purchasePath)
      .reply(422, { message: 'The amount field is required.', errors: { amount: ['required'] } });
    const error = await transport()
      .request('airtimePurchase', { body: purchase })
      .catch((e: unknown) => e);
    expect(isValidationError(error)).toBe(true);
    expect((error as { errors: object }).errors).toEqual({ amount: ['required'] });
  });

  it('an insufficient wallet is an InsufficientFundsError', async () => {
    nock(origin)
      .post(purchasePath)
      .reply(422, { message: 'Insufficient balance.', code: 'insufficient_funds' });
    const error = await transport()
      .request('airtimePurchase', { body: purchase })
      .catch((e: unknown) => e);
    expect(isInsufficientFundsError(error)).toBe(true);
  });

  it('a text error body is kept as text, with the request id', async () => {
    nock(origin).post(purchasePath).reply(502, 'Bad Gateway', { 'x-request-id': 'req-1' });
    const error = await transport()
      .request('airtimePurchase', { body: purchase })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ServerError',
      status: 502,
      body: 'Bad Gateway',
      requestId: 'req-1',
      method: 'POST',
      path: purchasePath,
    });
  });
});
