import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import {
  AuthenticationError,
  ConfigurationError,
  isPesakitError,
  isValidationError,
  RequestAbortedError,
  RequestValidationError,
} from '../../src/errors/index.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// An error before a byte is sent leaves no record — a record says
// "money may have moved", and nothing could have. Configuration fails when the client is built.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const mno = { amount: 15_000, msisdn: '255754123456' };
const payout = { msisdn: '255754123456', amount: 20_000, name: 'Asha' };

/** The paths of every request the client sent. */
function sentPaths(pesakit: Pesakit): string[] {
  const paths: string[] = [];
  pesakit.on('request', (event) => paths.push(event.path));
  return paths;
}

describe('configuration fails at construction, naming the option', () => {
  it.each([
    [
      'an empty password',
      {
        baseUrl: 'http://127.0.0.1:1',
        credentials: { collection: { email: 'a@b.tz', password: '' } },
      },
      'credentials.collection.password',
    ],
    [
      'an empty email',
      { baseUrl: 'http://127.0.0.1:1', credentials: { airtime: { email: ' ', password: 'pw' } } },
      'credentials.airtime.email',
    ],
    ['no baseUrl', { credentials: accounts }, 'baseUrl'],
    [
      'production without the product host',
      {
        environment: 'production' as const,
        baseUrls: { airtime: 'https://airtime.example.co.tz' },
        credentials: { collection: accounts.collection },
      },
      'baseUrls.collection',
    ],
    [
      'production with only a baseUrl',
      { environment: 'production' as const, baseUrl: 'https://one.example' },
      'baseUrls',
    ],
  ])('%s', (_case, options, option) => {
    const error = (() => {
      try {
        new Pesakit(options);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(isPesakitError(error)).toBe(true);
    expect(error).toMatchObject({ option });
    expect((error as Error).message).toContain(`\`${option}\``);
  });

  it('the password is never echoed in the message', () => {
    expect(
      () =>
        new Pesakit({
          baseUrl: harness.url,
          credentials: { collection: { email: '', password: 'hunter2-secret' } },
        }),
    ).toThrow(/^(?!.*hunter2-secret)/);
  });
});

describe('an aborted signal: RequestAbortedError, nothing stored, nothing sent', () => {
  it('already aborted before the call', async () => {
    const pesakit = harness.client();
    const sent = sentPaths(pesakit);
    const signal = AbortSignal.abort(new Error('customer left'));
    const error = await pesakit.collection
      .initiateMno(mno, { merchantReference: 'abort-early', signal })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(isPesakitError(error)).toBe(true);
    expect(error.reason).toEqual(new Error('customer left'));
    expect(await pesakit.store.records.get('abort-early')).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it('aborted while logging in: the login finishes, the payment is neither stored nor sent', async () => {
    const pesakit = harness.client();
    const sent = sentPaths(pesakit);
    const controller = new AbortController();
    pesakit.on('response', (event) => {
      if (event.endpoint === 'collectionLogin') controller.abort();
    });
    const error = await pesakit.collection
      .initiateMno(mno, { merchantReference: 'abort-login', signal: controller.signal })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(await pesakit.store.records.get('abort-login')).toBeUndefined();
    expect(sent).toEqual(['/api/sandbox/login']);
    // The reference is free: the same call succeeds.
    const payment = await pesakit.collection.initiateMno(mno, { merchantReference: 'abort-login' });
    expect(payment.record.status).toBe('pending');
  });

  it('aborted while a slow login is in flight: rejected at once, without waiting for the login', async () => {
    const pesakit = harness.client();
    const seen: string[] = [];
    const controller = new AbortController();
    pesakit.on('request', (event) => {
      seen.push(`request ${event.endpoint}`);
      if (event.endpoint === 'collectionLogin') setImmediate(() => controller.abort());
    });
    pesakit.on('response', (event) => seen.push(`response ${event.endpoint}`));
    await harness.control('faults', { latencyMs: 1_500 });
    try {
      const error = await pesakit.collection
        .initiateMno(mno, { merchantReference: 'abort-slow-login', signal: controller.signal })
        .catch((e) => e);
      seen.push('rejected');
      expect(error).toBeInstanceOf(RequestAbortedError);
      expect(seen).toEqual(['request collectionLogin', 'rejected']);
      expect(await pesakit.store.records.get('abort-slow-login')).toBeUndefined();
    } finally {
      await harness.control('faults', { latencyMs: 0 });
    }
  });

  it('a read aborted before it is sent is a RequestAbortedError too', async () => {
    const pesakit = harness.client();
    const error = await pesakit.disbursement.user({ signal: AbortSignal.abort() }).catch((e) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
  });
});

describe('missing credentials for a product: nothing stored', () => {
  it('a payout from a client with only collection credentials', async () => {
    const pesakit = harness.client({ credentials: { collection: accounts.collection } });
    const sent = sentPaths(pesakit);
    const error = await pesakit.disbursement
      .pay(payout, { merchantReference: 'no-creds' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.platformCode).toBe('missing_credentials');
    expect(error.message).toMatch(/setToken\('disbursement'/);
    expect(await pesakit.store.records.get('no-creds')).toBeUndefined();
    expect(sent).toEqual([]);
  });
});

describe('a product without a host, reached with a token set by hand: nothing stored', () => {
  it('production, disbursement token, only a collection host', async () => {
    const pesakit = new Pesakit({
      environment: 'production',
      baseUrls: { collection: 'https://collect.example.co.tz' },
    });
    pesakit.setToken('disbursement', 'token-from-elsewhere');
    const sent = sentPaths(pesakit);
    const error = await pesakit.disbursement
      .pay(payout, { merchantReference: 'no-host' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.option).toBe('baseUrls.disbursement');
    expect(await pesakit.store.records.get('no-host')).toBeUndefined();
    expect(sent).toEqual([]);
  });
});

describe('a login failure stores nothing and does not burn the merchant reference', () => {
  it('a mistyped password, then the right one: the same call succeeds', async () => {
    const store = new MemoryReferenceStore();
    await harness.control('wallets/credit', {
      product: 'disbursement',
      email: accounts.disbursement.email,
      amount: 100_000,
    });
    const mistyped = harness.client({
      store,
      credentials: { disbursement: { ...accounts.disbursement, password: 'payouts-secret-2' } },
    });
    const sent = sentPaths(mistyped);
    const error = await mistyped.disbursement
      .pay(payout, { merchantReference: 'order-42' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(await store.records.get('order-42')).toBeUndefined();
    expect(sent).toEqual(['/api/sandbox/disbursement/login']);

    const fixed = harness.client({ store });
    const paid = await fixed.disbursement.pay(payout, { merchantReference: 'order-42' });
    expect(paid.merchantReference).toBe('order-42');
    expect((await store.records.get('order-42'))?.status).not.toBe('failed');
  });
});

describe('amounts beyond the bound are refused before anything is stored or sent', () => {
  it.each([1e21, 1e308, 1_000_000_000.01])('%d', async (amount) => {
    const pesakit = harness.client();
    const sent = sentPaths(pesakit);
    const error = await pesakit.collection
      .initiateMno({ ...mno, amount }, { merchantReference: 'too-much' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(isValidationError(error)).toBe(true);
    expect(error.errors).toEqual({ amount: ['The amount may not be greater than 1000000000.'] });
    expect(error).toMatchObject({
      source: 'client',
      code: 'request_validation',
      method: 'POST',
      path: '/api/sandbox/initiate-payment/mno/',
    });
    expect(await pesakit.store.records.get('too-much')).toBeUndefined();
    expect(sent).toEqual([]);
  });
});
