import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import { isAuthenticationError } from '../../../src/errors/index.js';
import {
  airtimeCredentials,
  airtimeLoginAnswer,
  airtimeUser,
  initiation,
  origin,
  purchase,
  recordEvents,
} from './platform.js';

const loginPath = '/api/sandbox/airtime/login';
const userPath = '/api/sandbox/airtime/user';
const purchasePath = '/api/sandbox/airtime/customer/payments';
const purchaseAnswer = { status: 'success', message: 'Airtime sent' };

function transport() {
  return new Transport({
    baseUrl: origin,
    credentials: { airtime: airtimeCredentials },
    retryDelay: { minMs: 1, maxMs: 2 },
  });
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Bearer routes log in lazily with the product credentials', () => {
  it('logs in on the first bearer call, sends the token, and keeps it', async () => {
    const login = nock(origin)
      .post(loginPath, airtimeCredentials)
      .once()
      .reply(200, airtimeLoginAnswer('tok-A'));
    nock(origin)
      .get(userPath)
      .twice()
      .matchHeader('authorization', 'Bearer tok-A')
      .reply(200, { user: airtimeUser });
    const t = transport();
    await t.request('airtimeUser');
    await t.request('airtimeUser');
    expect(login.isDone()).toBe(true);
    expect(t.token('airtime')).toBe('tok-A');
    expect(nock.isDone()).toBe(true);
  });

  it('concurrent bearer calls share one login', async () => {
    let logins = 0;
    nock(origin)
      .post(loginPath)
      .times(5)
      .reply(200, () => {
        logins += 1;
        return airtimeLoginAnswer(`tok-${logins}`);
      });
    nock(origin)
      .get(userPath)
      .times(5)
      .matchHeader('authorization', 'Bearer tok-1')
      .reply(200, { user: airtimeUser });
    const t = transport();
    await Promise.all([1, 2, 3, 4, 5].map(() => t.request('airtimeUser')));
    expect(logins).toBe(1);
  });

  it('without a token or credentials, a bearer call is refused before sending', async () => {
    const t = new Transport({ baseUrl: origin });
    const events = recordEvents(t);
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, body: { code: 'missing_credentials' } });
    expect((error as Error).message).toMatch(/credentials\.airtime.*setToken.*Nothing was sent/);
    expect(events.request).toHaveLength(0);
  });

  it('a token set with setToken is used without logging in', async () => {
    nock(origin)
      .get(userPath)
      .matchHeader('authorization', 'Bearer given')
      .reply(200, { user: airtimeUser });
    const t = new Transport({ baseUrl: origin });
    t.setToken('airtime', 'given');
    await expect(t.request('airtimeUser')).resolves.toMatchObject({ user: { id: 7 } });
  });

  it('wrong credentials: the login 401 is an AuthenticationError, not retried', async () => {
    nock(origin).post(loginPath).once().reply(401, { message: 'Invalid credentials.' });
    const t = transport();
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect((error as Error).message).toMatch(/Invalid credentials/);
    expect(nock.isDone()).toBe(true);
  });
});

describe('On a 401 the transport logs in once more and repeats the request once', () => {
  it('401 → re-login exactly once → success', async () => {
    let logins = 0;
    nock(origin)
      .post(loginPath)
      .times(3)
      .reply(200, () => airtimeLoginAnswer(`fresh-${++logins}`));
    nock(origin)
      .post(purchasePath)
      .matchHeader('authorization', 'Bearer stale')
      .reply(401, { message: 'Unauthenticated.' })
      .post(purchasePath, purchase)
      .matchHeader('authorization', 'Bearer fresh-1')
      .reply(200, purchaseAnswer);
    const t = transport();
    t.setToken('airtime', 'stale');
    const events = recordEvents(t);
    await expect(t.request('airtimePurchase', { body: purchase })).resolves.toEqual(purchaseAnswer);
    expect(logins).toBe(1);
    expect(t.token('airtime')).toBe('fresh-1');
    const purchases = events.request.filter((e) => e.endpoint === 'airtimePurchase');
    expect(purchases.map((e) => e.attempt)).toEqual([1, 2]);
    expect(events.error).toHaveLength(0);
  });

  it('a second 401 is an AuthenticationError (no third attempt, no second re-login)', async () => {
    let logins = 0;
    nock(origin)
      .post(loginPath)
      .times(3)
      .reply(200, () => airtimeLoginAnswer(`fresh-${++logins}`));
    let purchases = 0;
    nock(origin)
      .post(purchasePath)
      .times(3)
      .reply(401, () => {
        purchases += 1;
        return { message: 'Unauthenticated.' };
      });
    const t = transport();
    const events = recordEvents(t);
    const error = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(purchases).toBe(2);
    // One lazy login before the first attempt, one re-login after the 401.
    expect(logins).toBe(2);
    expect(events.error.filter((e) => e.endpoint === 'airtimePurchase')).toHaveLength(1);
  });

  it('concurrent 401s share one re-login', async () => {
    let logins = 0;
    nock(origin)
      .post(loginPath)
      .times(4)
      .reply(200, () => airtimeLoginAnswer(`fresh-${++logins}`));
    nock(origin)
      .get(userPath)
      .times(3)
      .matchHeader('authorization', 'Bearer stale')
      .reply(401, { message: 'Unauthenticated.' })
      .get(userPath)
      .times(3)
      .matchHeader('authorization', 'Bearer fresh-1')
      .reply(200, { user: airtimeUser });
    const t = transport();
    t.setToken('airtime', 'stale');
    await Promise.all([1, 2, 3].map(() => t.request('airtimeUser')));
    expect(logins).toBe(1);
  });
});

describe('Logout revokes and forgets the token', () => {
  it('collection: calls logout with the token, then forgets it', async () => {
    nock(origin)
      .post('/api/sandbox/logout')
      .matchHeader('authorization', 'Bearer coll')
      .reply(200, { message: 'Logged out.' });
    const t = new Transport({ baseUrl: origin });
    t.setToken('collection', 'coll');
    await t.logout('collection');
    expect(t.token('collection')).toBeUndefined();
    expect(nock.isDone()).toBe(true);
  });

  it('a 401 on logout means already logged out: resolved, forgotten, no login', async () => {
    nock(origin)
      .post('/api/sandbox/disbursement/logout')
      .reply(401, { message: 'Unauthenticated.' });
    const t = new Transport({
      baseUrl: origin,
      credentials: { disbursement: airtimeCredentials },
    });
    t.setToken('disbursement', 'dead');
    await expect(t.logout('disbursement')).resolves.toBeUndefined();
    expect(t.token('disbursement')).toBeUndefined();
    expect(nock.isDone()).toBe(true);
  });

  it('airtime has no logout route: the token is just forgotten', async () => {
    const t = new Transport({ baseUrl: origin });
    const events = recordEvents(t);
    t.setToken('airtime', 'tok');
    await t.logout('airtime');
    expect(t.token('airtime')).toBeUndefined();
    expect(events.request).toHaveLength(0);
  });

  it('with no token held, logout sends nothing', async () => {
    const t = new Transport({ baseUrl: origin });
    const events = recordEvents(t);
    await t.logout('collection');
    expect(events.request).toHaveLength(0);
  });
});

describe('pay_mobile takes an optional x-api-key', () => {
  const payMobile = { amount: 1000, msisdn: '255744123456' };

  it('sends apiKey as x-api-key and no Authorization', async () => {
    nock(origin)
      .post('/api/sandbox/pay_mobile')
      .matchHeader('x-api-key', 'key-123')
      .matchHeader('authorization', (value) => value === undefined)
      .reply(200, initiation);
    const t = new Transport({ baseUrl: origin, apiKey: 'key-123' });
    await expect(t.request('payMobile', { body: payMobile })).resolves.toMatchObject({
      controlNumber: '991234567890',
    });
  });

  it('never sends the API key to other routes', async () => {
    nock(origin)
      .get(userPath)
      .matchHeader('x-api-key', (value) => value === undefined)
      .reply(200, { user: airtimeUser });
    const t = new Transport({ baseUrl: origin, apiKey: 'key-123' });
    t.setToken('airtime', 'tok');
    await expect(t.request('airtimeUser')).resolves.toBeDefined();
  });
});
