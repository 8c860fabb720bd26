import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import {
  isAuthenticationError,
  isServerError,
  RateLimitError,
  RequestAbortedError,
} from '../../../src/errors/index.js';
import { airtimeUser, origin, purchase, recordEvents } from './platform.js';

const userPath = '/api/sandbox/airtime/user';
const purchasePath = '/api/sandbox/airtime/customer/payments';

function transport(maxRetries = 3) {
  const t = new Transport({
    baseUrl: origin,
    maxRetries,
    retryDelay: { minMs: 8, maxMs: 32 },
  });
  t.setToken('airtime', 'tok-1');
  return t;
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Safe operations are retried on transient failures', () => {
  it.each([408, 429, 500, 502, 503])(
    'retries a read answered %i, then succeeds',
    async (status) => {
      nock(origin)
        .get(userPath)
        .reply(status, { message: 'later' })
        .get(userPath)
        .reply(200, { user: airtimeUser });
      const t = transport();
      const events = recordEvents(t);
      const answer = await t.request('airtimeUser');
      expect(answer.user.wallet.balance).toBe(25_000);
      expect(events.request.map((e) => e.attempt)).toEqual([1, 2]);
      expect(events.retry).toHaveLength(1);
      expect(events.retry[0]?.status).toBe(status);
      expect(events.error).toHaveLength(0);
    },
  );

  it('retries a connection failure of a read', async () => {
    nock(origin)
      .get(userPath)
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
      .get(userPath)
      .reply(200, { user: airtimeUser });
    const t = transport();
    await expect(t.request('airtimeUser')).resolves.toMatchObject({ user: { id: 7 } });
  });

  it('does not retry a 4xx other than 408 and 429', async () => {
    nock(origin).get(userPath).reply(404, { message: 'Not Found' });
    const t = transport();
    const events = recordEvents(t);
    await expect(t.request('airtimeUser')).rejects.toMatchObject({ name: 'NotFoundError' });
    expect(events.request).toHaveLength(1);
    expect(events.retry).toHaveLength(0);
  });

  it('gives up after maxRetries and throws the last failure', async () => {
    nock(origin).get(userPath).times(3).reply(503, { message: 'Service Unavailable' });
    const t = transport(2);
    const events = recordEvents(t);
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(isServerError(error)).toBe(true);
    expect(events.request).toHaveLength(3);
    expect(events.retry).toHaveLength(2);
    expect(events.error).toHaveLength(1);
    expect(events.error[0]?.status).toBe(503);
    expect(nock.isDone()).toBe(true);
  });

  it('maxRetries 0 disables retries', async () => {
    nock(origin).get(userPath).reply(503, { message: 'Service Unavailable' });
    const t = transport(0);
    const events = recordEvents(t);
    await expect(t.request('airtimeUser')).rejects.toMatchObject({ status: 503 });
    expect(events.request).toHaveLength(1);
  });
});

describe('Backoff is exponential with jitter, from minMs doubling to maxMs', () => {
  it('each retry waits at least minMs·2^n, capped at maxMs; the event reports that floor', async () => {
    nock(origin).get(userPath).times(5).reply(500, { message: 'boom' });
    const t = transport(4);
    const events = recordEvents(t);
    const started = performance.now();
    await t.request('airtimeUser').catch(() => undefined);
    const elapsed = performance.now() - started;
    expect(events.retry.map((e) => e.delayMs)).toEqual([8, 16, 32, 32]);
    // p-retry stretches each wait at random by up to as much again, never shortens it.
    expect(elapsed).toBeGreaterThanOrEqual(8 + 16 + 32 + 32 - 1);
  });

  it('uses the default schedule, starting at 0.5 s', async () => {
    nock(origin)
      .get(userPath)
      .reply(503, { message: 'Down' })
      .get(userPath)
      .reply(200, { user: airtimeUser });
    const t = new Transport({ baseUrl: origin });
    t.setToken('airtime', 'tok-1');
    const events = recordEvents(t);
    const started = performance.now();
    await t.request('airtimeUser');
    expect(events.retry.map((e) => e.delayMs)).toEqual([500]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(499);
  });
});

describe('Retry-After is honoured', () => {
  it('waits exactly retry-after-ms', async () => {
    nock(origin)
      .get(userPath)
      .reply(429, { message: 'Too Many Attempts.' }, { 'retry-after-ms': '3' })
      .get(userPath)
      .reply(200, { user: airtimeUser });
    const t = new Transport({ baseUrl: origin, retryDelay: { minMs: 5_000, maxMs: 8_000 } });
    t.setToken('airtime', 'tok-1');
    const events = recordEvents(t);
    await t.request('airtimeUser');
    expect(events.retry.map((e) => e.delayMs)).toEqual([3]);
  });

  it('waits Retry-After seconds (0 means at once)', async () => {
    nock(origin)
      .get(userPath)
      .reply(503, { message: 'Down' }, { 'retry-after': '0' })
      .get(userPath)
      .reply(200, { user: airtimeUser });
    const t = new Transport({ baseUrl: origin, retryDelay: { minMs: 5_000, maxMs: 8_000 } });
    t.setToken('airtime', 'tok-1');
    const events = recordEvents(t);
    await t.request('airtimeUser');
    expect(events.retry.map((e) => e.delayMs)).toEqual([0]);
  });

  it('ignores a Retry-After above 60 s and falls back to the backoff', async () => {
    nock(origin)
      .get(userPath)
      .reply(429, { message: 'Too Many Attempts.' }, { 'retry-after': '3600' })
      .get(userPath)
      .reply(200, { user: airtimeUser });
    const t = transport();
    const events = recordEvents(t);
    await t.request('airtimeUser');
    const delay = events.retry[0]?.delayMs ?? -1;
    expect(delay).toBeGreaterThanOrEqual(6);
    expect(delay).toBeLessThanOrEqual(8);
  });

  it('a caller abort during the backoff ends the call at once', async () => {
    nock(origin)
      .get(userPath)
      .reply(503, { message: 'Down' }, { 'retry-after': '30' })
      .get(userPath)
      .reply(200, { user: airtimeUser });
    const t = transport();
    const controller = new AbortController();
    t.events.on('retry', () => controller.abort(new Error('caller gave up')));
    const error = await t.request('airtimeUser', { signal: controller.signal }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error.reason).toEqual(new Error('caller gave up'));
    expect(nock.pendingMocks()).toHaveLength(1);
  });
});

describe('A caller with its own rate gate retries a 429 itself', () => {
  it('retryRateLimited: false throws the 429 after one attempt, and still retries a 503', async () => {
    nock(origin)
      .get(userPath)
      .reply(429, { message: 'Too Many Attempts.' }, { 'retry-after-ms': '3' })
      .get(userPath)
      .reply(503, { message: 'Down' }, { 'retry-after-ms': '1' })
      .get(userPath)
      .reply(200, { user: airtimeUser });
    const t = transport();
    const events = recordEvents(t);
    const error = await t.request('airtimeUser', { retryRateLimited: false }).catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(events.retry).toEqual([]);
    // The gate's own retry: a 503 is still the transport's to repeat.
    await t.request('airtimeUser', { retryRateLimited: false });
    expect(events.retry.map((e) => e.status)).toEqual([503]);
    expect(nock.pendingMocks()).toEqual([]);
  });
});

describe('Money-moving POSTs are never retried', () => {
  it.each([500, 503, 429, 408])('an airtime purchase answered %i is sent once', async (status) => {
    nock(origin).post(purchasePath).reply(status, { message: 'nope' });
    const t = transport();
    const events = recordEvents(t);
    await expect(t.request('airtimePurchase', { body: purchase })).rejects.toMatchObject({
      status,
    });
    expect(events.request).toHaveLength(1);
    expect(events.retry).toHaveLength(0);
  });

  it('a 401 on a purchase is not a retry of the payment (no credentials: thrown as is)', async () => {
    nock(origin).post(purchasePath).reply(401, { message: 'Unauthenticated.' });
    const t = transport();
    const error = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
  });
});
