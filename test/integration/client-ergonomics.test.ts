import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { AuthenticationError, RequestAbortedError, TimeoutError } from '../../src/errors/index.js';
import { harnessFetch } from '../helpers/openapi-contract.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// What stripe-node and openai-node users expect: per-call options on reads,
// setToken on the client, the raw response of a success, and a list that is a real promise.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
afterEach(async () => {
  await harness.control('faults', { latencyMs: 0 });
});

describe('pesakit.setToken(product, token)', () => {
  it('a client without credentials authenticates with a token obtained elsewhere', async () => {
    const { token } = await harness.client().airtime.login();
    const checked = harnessFetch();
    const pesakit = new Pesakit({ baseUrl: harness.url, ...(checked ? { fetch: checked } : {}) });
    await expect(pesakit.airtime.user()).rejects.toMatchObject({
      code: 'authentication_error',
      platformCode: 'missing_credentials',
      message: expect.stringMatching(
        /needs a bearer token for the airtime product, and no airtime/,
      ),
    });
    expect(pesakit.setToken('airtime', token)).toBe(pesakit);
    const { user } = await pesakit.airtime.user();
    expect(user.email).toBe(accounts.airtime.email);
    pesakit.setToken('airtime', undefined);
    await expect(pesakit.airtime.user()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('reads take per-call { signal, timeoutMs }', () => {
  it('timeoutMs on user(): a slow platform is a TimeoutError after that many ms', async () => {
    const pesakit = harness.client({ maxRetries: 0 });
    await pesakit.airtime.login();
    await harness.control('faults', { latencyMs: 1_000 });
    const error = await pesakit.airtime.user({ timeoutMs: 100 }).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeoutMs).toBe(100);
  });

  it('signal on status() and payments(): aborted in flight, a RequestAbortedError', async () => {
    const pesakit = harness.client({ maxRetries: 0 });
    const payment = await pesakit.collection.initiateBank({ amount: 1_000 });
    await pesakit.disbursement.login();
    await harness.control('faults', { latencyMs: 1_000 });
    const controller = new AbortController();
    pesakit.on('request', () => setImmediate(() => controller.abort(new Error('gave up'))));
    const status = await pesakit.collection
      .status(payment.controlNumber, { signal: controller.signal })
      .catch((e) => e);
    expect(status).toBeInstanceOf(RequestAbortedError);
    expect(status.reason).toEqual(new Error('gave up'));
    const list = await pesakit.disbursement
      .payments({}, { signal: controller.signal })
      .catch((e) => e);
    expect(list).toBeInstanceOf(RequestAbortedError);
  });
});

describe('the raw response of a success: lastResponse (stripe-node)', () => {
  it('status, request id and redacted headers, not enumerable', async () => {
    const pesakit = harness.client();
    const requestIds: (string | undefined)[] = [];
    pesakit.on('response', (event) => requestIds.push(event.requestId));
    const user = await pesakit.airtime.user();
    expect(user.lastResponse.status).toBe(200);
    expect(user.lastResponse.requestId).toBe(requestIds.at(-1));
    expect(user.lastResponse.headers['content-type']).toMatch(/json/);
    expect(Object.keys(user)).not.toContain('lastResponse');
    expect(JSON.stringify(user)).not.toContain('lastResponse');
  });

  it('on money-moving results, status pulls and list pages too', async () => {
    const pesakit = harness.client();
    const payment = await pesakit.collection.initiateMno({ amount: 5_000, msisdn: '255754123456' });
    expect(payment.lastResponse.status).toBeGreaterThanOrEqual(200);
    expect(payment.lastResponse.status).toBeLessThan(300);
    const pulled = await pesakit.collection.status(payment.controlNumber);
    expect(pulled.record?.merchantReference).toBe(payment.merchantReference);
    expect(pulled.lastResponse.status).toBe(200);
    const page = await pesakit.disbursement.payments();
    expect(page.lastResponse.status).toBe(200);
  });
});

describe('payments() is a real promise', () => {
  it('catch and finally work, as on any promise', async () => {
    const pesakit = harness.client({
      credentials: { disbursement: { ...accounts.disbursement, password: 'wrong-password-1' } },
    });
    let settled = false;
    const error = await pesakit.disbursement
      .payments()
      .finally(() => {
        settled = true;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(settled).toBe(true);
    const caught = await pesakit.disbursement.payments().catch(() => 'caught');
    expect(caught).toBe('caught');
  });

  it('Promise.all and Promise.resolve take it as a promise', async () => {
    const pesakit = harness.client();
    const [page] = await Promise.all([pesakit.disbursement.payments({ per_page: 5 })]);
    expect(page.perPage).toBe(5);
    const again = await Promise.resolve(pesakit.disbursement.payments());
    expect(again.currentPage).toBe(1);
    expect(Object.prototype.toString.call(pesakit.disbursement.payments())).toBe(
      '[object Promise]',
    );
  });
});
