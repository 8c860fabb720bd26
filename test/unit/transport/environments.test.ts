import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import { airtimeUser, purchase } from './platform.js';

const purchaseAnswer = { status: 'success', message: 'Airtime sent' };

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe('Versioning: the environment selects the path table', () => {
  it('sandbox: /api/sandbox/airtime/customer/payments on the one baseUrl', async () => {
    nock('http://sandbox.test')
      .post('/api/sandbox/airtime/customer/payments')
      .reply(200, purchaseAnswer);
    const t = new Transport({ baseUrl: 'http://sandbox.test' });
    t.setToken('airtime', 'tok');
    await expect(t.request('airtimePurchase', { body: purchase })).resolves.toEqual(purchaseAnswer);
  });

  it('production: /customer/payments on the airtime host', async () => {
    nock('https://airtime.example').post('/customer/payments').reply(200, purchaseAnswer);
    const t = new Transport({
      environment: 'production',
      baseUrls: { airtime: 'https://airtime.example' },
    });
    t.setToken('airtime', 'tok');
    await expect(t.request('airtimePurchase', { body: purchase })).resolves.toEqual(purchaseAnswer);
  });

  it('production: each product has its own host (/api/login twice, two hosts)', async () => {
    nock('https://collect.example')
      .post('/api/login')
      .reply(200, {
        token: 'c',
        token_type: 'Bearer',
        user: { id: 1, name: 'M', email: 'm@x.tz' },
      });
    nock('https://payout.example')
      .post('/api/login')
      .reply(200, {
        token: 'd',
        user: { ...airtimeUser, status: 'active' },
        wallet: { balance: 1 },
      });
    const credentials = { email: 'm@x.tz', password: 'secret-pass' };
    const t = new Transport({
      environment: 'production',
      baseUrls: { collection: 'https://collect.example', disbursement: 'https://payout.example' },
      credentials: { collection: credentials, disbursement: credentials },
    });
    await expect(t.authenticate('collection')).resolves.toBe('c');
    await expect(t.authenticate('disbursement')).resolves.toBe('d');
  });

  it('baseUrls takes precedence over baseUrl per product; a path prefix is kept', async () => {
    nock('http://proxy.test')
      .get('/pesakit/api/sandbox/airtime/user')
      .reply(200, { user: airtimeUser });
    const t = new Transport({
      baseUrl: 'http://unused.test',
      baseUrls: { airtime: 'http://proxy.test/pesakit/' },
    });
    t.setToken('airtime', 'tok');
    await expect(t.request('airtimeUser')).resolves.toMatchObject({ user: { id: 7 } });
  });

  it('production without the product host names the option to set', async () => {
    const t = new Transport({
      environment: 'production',
      baseUrls: { collection: 'https://collect.example' },
    });
    t.setToken('airtime', 'tok');
    await expect(t.request('airtimeUser')).rejects.toThrow(/baseUrls\.airtime/);
  });

  it('without any host, construction fails naming the option', () => {
    expect(() => new Transport({})).toThrow(/`baseUrl` is required/);
    expect(() => new Transport({ environment: 'production' })).toThrow(/needs `baseUrls`/);
  });
});

describe('Options are checked at construction', () => {
  it.each([
    [{ baseUrl: 'not a url' }, /baseUrl/],
    [{ baseUrls: { airtime: 'ftp://x' } }, /baseUrls\.airtime/],
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ maxRetries: -1 }, /maxRetries/],
    [{ maxRetries: 1.5 }, /maxRetries/],
    [{ retryDelay: { minMs: 100, maxMs: 10 } }, /retryDelay\.maxMs/],
    [{ environment: 'staging' as never }, /environment/],
  ])('%o is refused', (options, message) => {
    expect(() => new Transport({ baseUrl: 'http://sandbox.test', ...options })).toThrow(message);
  });
});

describe('Every call goes through the injected fetch', () => {
  it('uses options.fetch for logins and calls alike', async () => {
    const seen: string[] = [];
    const fetchSpy: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      const body = request.url.endsWith('/login')
        ? { token: 't', token_type: 'Bearer', user: airtimeUser }
        : { user: airtimeUser };
      return new Response(JSON.stringify(body), {
        headers: { 'content-type': 'application/json' },
      });
    };
    const t = new Transport({
      baseUrl: 'http://injected.test',
      fetch: fetchSpy,
      credentials: { airtime: { email: 'a@b.tz', password: 'pw' } },
    });
    await t.request('airtimeUser');
    expect(seen).toEqual(['POST /api/sandbox/airtime/login', 'GET /api/sandbox/airtime/user']);
  });

  it('adds the configured and per-call headers', async () => {
    let headers: Headers | undefined;
    const fetchSpy: typeof fetch = async (input, init) => {
      headers = new Request(input, init).headers;
      return new Response(JSON.stringify({ user: airtimeUser }));
    };
    const t = new Transport({
      baseUrl: 'http://injected.test',
      fetch: fetchSpy,
      headers: { 'x-shop': 'duka' },
    });
    t.setToken('airtime', 'tok');
    await t.request('airtimeUser', {
      headers: { 'x-trace': 'abc', authorization: 'Bearer forged' },
    });
    expect(headers?.get('x-shop')).toBe('duka');
    expect(headers?.get('x-trace')).toBe('abc');
    expect(headers?.get('authorization')).toBe('Bearer tok');
  });
});
