import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  InsufficientFundsError,
  RequestValidationError,
} from '../../src/errors/index.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

describe('disbursement: register, activate, log in', () => {
  const newcomer = {
    name: 'Mpya Traders',
    email: 'mpya@traders.co.tz',
    phone: '255754000777',
    password: 'mpya-secret-1',
  };

  it('a registered account is unverified and cannot log in until verified', async () => {
    const pesakit = harness.client({ credentials: {} });
    const registered = await pesakit.disbursement.register(newcomer);
    expect(registered.user).toMatchObject({ email: newcomer.email, status: 'unverified' });
    expect(JSON.stringify(registered)).not.toContain(newcomer.password);

    const refused = await pesakit.disbursement
      .login({ email: newcomer.email, password: newcomer.password })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(refused.status).toBe(401);

    await harness.control('accounts', {
      product: 'disbursement',
      email: newcomer.email,
      status: 'active',
    });
    const login = await pesakit.disbursement.login({
      email: newcomer.email,
      password: newcomer.password,
    });
    expect(login.user.status).toBe('active');
    expect(login.wallet.balance).toBe(0);
  });

  it('wrong credentials are an AuthenticationError', async () => {
    const pesakit = harness.client({
      credentials: {
        disbursement: { email: accounts.disbursement.email, password: 'wrong-password' },
      },
    });
    await expect(pesakit.disbursement.user()).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe('disbursement: pay, and find the payout by every reference', () => {
  it('a payout debits amount plus charge and stores refid and txnid', async () => {
    await harness.control('wallets/credit', {
      product: 'disbursement',
      email: accounts.disbursement.email,
      amount: 100_000,
    });
    const pesakit = harness.client();
    const payout = await pesakit.disbursement.pay(
      { msisdn: '255754123456', amount: 20_000, name: 'Asha Juma' },
      { merchantReference: 'order-1001', metadata: { orderId: '1001' } },
    );
    expect(payout.response.status).toBe(true);
    expect(payout.merchantReference).toBe('order-1001');
    expect(payout.record).toMatchObject({
      product: 'disbursement',
      flow: 'disbursement',
      status: 'success',
      amount: 20_000,
      msisdn: '255754123456',
      refid: payout.response.reference,
      metadata: { orderId: '1001' },
    });
    expect(payout.record.txnid).toMatch(/^TXN\d{12}$/);
    expect(payout.record.txnid).toBe(payout.payment?.txnid);

    const { wallet } = await pesakit.disbursement.user();
    expect(wallet.balance).toBe(100_000 - 20_000 - 200); // 1% charge

    for (const reference of ['order-1001', payout.record.refid!, payout.record.txnid!]) {
      expect((await pesakit.store.records.find({ value: reference }))?.merchantReference).toBe(
        'order-1001',
      );
    }
    const sms = harness.sandbox.inspect.sms().filter((m) => m.to === '255754123456');
    expect(sms.at(-1)?.text).toContain(payout.response.reference);
  });

  it('an upstream failure (number ending 999) is a BadRequestError; the record is failed and nothing debited', async () => {
    const pesakit = harness.client();
    const before = (await pesakit.disbursement.user()).wallet.balance;
    const error = await pesakit.disbursement
      .pay(
        { msisdn: '255754000999', amount: 1000, name: 'Fail' },
        { merchantReference: 'order-fail' },
      )
      .catch((e) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((await pesakit.store.records.get('order-fail'))?.status).toBe('failed');
    expect((await pesakit.disbursement.user()).wallet.balance).toBe(before);
  });

  it('amount plus charge above the balance is an InsufficientFundsError; the record is failed', async () => {
    const pesakit = harness.client();
    const { wallet } = await pesakit.disbursement.user();
    const error = await pesakit.disbursement
      .pay(
        { msisdn: '255754123456', amount: wallet.balance, name: 'Too much' },
        { merchantReference: 'order-poor' },
      )
      .catch((e) => e);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect((await pesakit.store.records.get('order-poor'))?.status).toBe('failed');
    expect((await pesakit.disbursement.user()).wallet.balance).toBe(wallet.balance);
  });

  it('an MSISDN of no provider never reaches the platform', async () => {
    const pesakit = harness.client();
    const count = harness.sandbox.inspect.snapshot();
    const error = await pesakit.disbursement
      .pay(
        { msisdn: '255631234567', amount: 1000, name: 'Nobody' },
        { merchantReference: 'order-noprov' },
      )
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(await pesakit.store.records.get('order-noprov')).toBeUndefined();
    expect(harness.sandbox.inspect.snapshot()).toEqual(count);
  });
});

describe('disbursement: getPayments pages, newest first', () => {
  it('await gives one page; for await walks every payout on every page', async () => {
    await harness.control('wallets/credit', {
      product: 'disbursement',
      email: accounts.disbursement.email,
      amount: 50_000,
    });
    const pesakit = harness.client();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const payout = await pesakit.disbursement.pay({
        msisdn: '255684000001',
        amount: 1000 + i,
        name: `Payee ${i}`,
      });
      made.push(payout.response.reference);
    }

    const first = await pesakit.disbursement.payments({ per_page: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.perPage).toBe(2);
    expect(first.hasNextPage()).toBe(true);
    expect(first.data[0]?.refid).toBe(made.at(-1)); // latest first

    const seen: string[] = [];
    for await (const payout of pesakit.disbursement.payments({ per_page: 2 }))
      seen.push(payout.refid);
    expect(seen).toHaveLength(first.total);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 5)).toEqual([...made].reverse());

    // A real Promise, fetched only when awaited: catch and finally work, sent once.
    const sent: string[] = [];
    pesakit.on('request', (event) => sent.push(event.endpoint));
    const page = pesakit.disbursement.payments({ per_page: 1 });
    expect(page).toBeInstanceOf(Promise);
    expect(sent).toEqual([]);
    const caught = await page.catch(() => undefined).finally(() => sent.push('finally'));
    expect(caught?.data).toHaveLength(1);
    expect(sent).toEqual(['disbursementPayments', 'finally']);
  });
});

describe('disbursement: logout revokes the token', () => {
  it('the revoked token is refused; the client logs in again lazily', async () => {
    const pesakit = harness.client();
    await pesakit.disbursement.user();
    const login = await pesakit.disbursement.login();
    await pesakit.disbursement.logout();
    const withOldToken = await fetch(`${harness.url}/api/sandbox/disbursement/user`, {
      headers: { authorization: `Bearer ${login.token}` },
    });
    expect(withOldToken.status).toBe(401);
    expect((await pesakit.disbursement.user()).user.email).toBe(accounts.disbursement.email);
  });
});
