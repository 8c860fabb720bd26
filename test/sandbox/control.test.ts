import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { CallbackReceiver } from './delivery-receiver.js';
import { bearer, field, PASSWORD, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
afterEach(() => s.close());
const start = async (options: SandboxOptions = {}) => {
  s = await startSandbox(options);
};

describe('control API access: loopback only, or x-control-key when started with a control key', () => {
  it('answers a non-loopback caller with 403 when there is no control key', async () => {
    await start();
    const remote = await s.sandbox.app.inject({
      method: 'GET',
      url: '/api/sandbox/_control/sms',
      remoteAddress: '10.1.2.3',
    });
    expect(remote.statusCode).toBe(403);
    expect((await s.control('sms', undefined, 'GET')).status).toBe(200);
  });

  it('with a control key, requires it from everyone (401 without or wrong), compared as a secret', async () => {
    await start({ controlKey: 'let-me-in' });
    const bare = await s.call('GET', '/api/sandbox/_control/sms');
    const wrong = await s.call('GET', '/api/sandbox/_control/sms', undefined, {
      'x-control-key': 'nope',
    });
    expect([bare.status, wrong.status]).toEqual([401, 401]);
    expect((await s.control('sms', undefined, 'GET')).status).toBe(200);
    const remote = await s.sandbox.app.inject({
      method: 'GET',
      url: '/api/sandbox/_control/sms',
      remoteAddress: '10.1.2.3',
      headers: { 'x-control-key': 'let-me-in' },
    });
    expect(remote.statusCode).toBe(200);
  });
});

describe('POST accounts: create or update an account (this is how accounts are activated)', () => {
  it('creates (201) and updates (200) without ever returning a secret', async () => {
    await start();
    const created = await s.control('accounts', {
      product: 'airtime',
      email: 'New@Duka.tz',
      password: PASSWORD,
      status: 'pending',
      role_id: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      account: { product: 'airtime', email: 'new@duka.tz', status: 'pending' },
    });
    const updated = await s.control('accounts', {
      product: 'airtime',
      email: 'new@duka.tz',
      status: 'active',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ account: { status: 'active' } });
    expect(created.text + updated.text).not.toMatch(/scrypt|password/i);
  });

  it('refuses a status the product does not have, a role on a non-airtime account, and a new account without password', async () => {
    await start();
    const before = s.sandbox.inspect.snapshot();
    const status = await s.control('accounts', {
      product: 'disbursement',
      email: 'x@duka.tz',
      password: PASSWORD,
      status: 'pending',
    });
    const role = await s.control('accounts', {
      product: 'collection',
      email: 'x@duka.tz',
      password: PASSWORD,
      role_id: 1,
    });
    const nopass = await s.control('accounts', { product: 'collection', email: 'x@duka.tz' });
    expect(field(status, 'errors')).toHaveProperty('status');
    expect(field(role, 'errors')).toHaveProperty('role_id');
    expect(field(nopass, 'errors')).toHaveProperty('password');
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });
});

describe('POST wallets/credit {product, email, amount} → {balance}', () => {
  it('credits the wallet and records a ledger entry; unknown account → 404', async () => {
    await start();
    await s.account('disbursement', 'w@duka.tz');
    const credit = await s.control('wallets/credit', {
      product: 'disbursement',
      email: 'w@duka.tz',
      amount: 1234.5,
    });
    expect(credit.body).toEqual({ balance: 1234.5 });
    expect(s.sandbox.inspect.wallet('disbursement', 'w@duka.tz')?.ledger).toHaveLength(1);
    expect(
      (await s.control('wallets/credit', { product: 'airtime', email: 'w@duka.tz', amount: 1 }))
        .status,
    ).toBe(404);
    const collection = await s.control('wallets/credit', {
      product: 'collection',
      email: 'w@duka.tz',
      amount: 1,
    });
    expect(field(collection, 'errors')).toHaveProperty('product');
  });
});

describe('GET sms and GET deliveries', () => {
  it('lists messages {to, text, product, reference, at} and the delivery log', async () => {
    await start();
    const token = await s.account('disbursement', 'sms@duka.tz', 5000);
    await s.call(
      'POST',
      '/api/sandbox/disbursement/payment',
      { msisdn: '255754123456', amount: 1000, name: 'N' },
      bearer(token),
    );
    const sms = await s.control('sms', undefined, 'GET');
    expect(sms.body).toMatchObject({
      messages: [
        {
          to: '255754123456',
          product: 'disbursement',
          text: expect.any(String),
          reference: expect.any(String),
          at: expect.any(String),
        },
      ],
    });
    expect((await s.control('deliveries', undefined, 'GET')).body).toEqual({
      deliveries: [],
      next: null,
      total: 0,
      dropped: 0,
    });
  });
});

describe('POST faults: merged; latencyMs applies to every non-control response', () => {
  it('merges patches, validates them, and delays API responses but not control ones', async () => {
    await start();
    const set = await s.control('faults', { latencyMs: 500 });
    expect(set.body).toEqual({ faults: { latencyMs: 500 } });
    const merged = await s.control('faults', { callbacks: { drop: 1 } });
    expect(merged.body).toEqual({ faults: { latencyMs: 500, callbacks: { drop: 1 } } });
    const bad = await s.control('faults', { latencyMs: -1 });
    expect(bad.status).toBe(422);
    const started = performance.now();
    await s.call('POST', '/api/sandbox/merchant/test-airtel');
    expect(performance.now() - started).toBeGreaterThanOrEqual(490);
    // With a 30 s latency, a control answer arrives while an API answer is still held back.
    await s.control('faults', { latencyMs: 30_000 });
    let apiAnswered = false;
    const held = s.call('POST', '/api/sandbox/merchant/test-airtel').then(
      () => (apiAnswered = true),
      () => undefined,
    );
    expect((await s.control('faults', undefined, 'GET')).status).toBe(200);
    expect(apiAnswered).toBe(false);
    await s.close();
    await held;
  });
});

describe('POST faults patches only what it names (callbacks.drop is not re-armed)', () => {
  it('a later {callbacks: {delayMs: 0}} does not drop the next callback; GET faults shows drop: 0', async () => {
    await start();
    const receiver = new CallbackReceiver();
    const callbackUrl = await receiver.listen();
    try {
      const settleOne = async () => {
        const opened = await s.call('POST', '/api/sandbox/pay_mobile', {
          amount: 500,
          msisdn: '255754123456',
          callback_url: callbackUrl,
        });
        await s.control('collection/settle', {
          ref_id: field(opened, 'controlNumber'),
          outcome: 'success',
        });
        await s.sandbox.idle();
      };
      await s.control('faults', { callbacks: { drop: 1 } });
      await settleOne();
      expect(receiver.received).toHaveLength(0);
      expect((await s.control('faults', undefined, 'GET')).body).toEqual({
        faults: { callbacks: { drop: 0 } },
      });
      const patched = await s.control('faults', { callbacks: { delayMs: 0 } });
      expect(patched.body).toEqual({ faults: { callbacks: { drop: 0, delayMs: 0 } } });
      await settleOne();
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('POST reset: clears state and re-applies the seed', () => {
  it('empties accounts, wallets and the outbox, keeping seeded accounts', async () => {
    await start({
      seed: {
        accounts: [
          { product: 'disbursement', email: 'seed@duka.tz', password: PASSWORD, balance: 900 },
        ],
      },
    });
    await s.account('airtime', 'temp@duka.tz', 100);
    const before = await s.call('POST', '/api/sandbox/disbursement/login', {
      email: 'seed@duka.tz',
      password: PASSWORD,
    });
    const { token } = before.body as { token: string };
    expect((await s.control('reset', {})).status).toBe(200);
    expect(s.sandbox.inspect.snapshot()).toMatchObject({ tokens: 0, sms: 0, collections: 0 });
    // A token from before the reset is refused, though the seed made its account again.
    const stale = await s.call('GET', '/api/sandbox/disbursement/user', undefined, bearer(token));
    expect(stale.status).toBe(401);
    expect(s.sandbox.inspect.wallet('airtime', 'temp@duka.tz')).toBeUndefined();
    expect(s.sandbox.inspect.wallet('disbursement', 'seed@duka.tz')?.balance).toBe(900);
    const login = await s.call('POST', '/api/sandbox/disbursement/login', {
      email: 'seed@duka.tz',
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
  });
});
