import { afterEach, describe, expect, it } from 'vitest';
import { MAX_WALLET_BALANCE_TZS } from '../../src/sandbox/money.js';
import { MAX_AMOUNT_TZS } from '../../src/schemas/amount.js';
import { bearer, field, PASSWORD, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
afterEach(() => s.close());

const credit = (email: string, amount: unknown, product = 'disbursement') =>
  s.control('wallets/credit', { product, email, amount });

describe('POST _control/wallets/credit: amounts within the shared bound, exact cents', () => {
  it.each([
    [1e308, /greater than 1000000000/],
    [1e21, /greater than 1000000000/],
    [MAX_AMOUNT_TZS + 0.01, /greater than 1000000000/],
    [0.001, /two decimal/],
    [-5, /greater than 0/],
  ])('refuses %s with a 422 naming amount, and changes nothing', async (amount, message) => {
    s = await startSandbox();
    await s.account('disbursement', 'big@duka.tz', 100);
    const before = s.sandbox.inspect.snapshot();
    const answer = await credit('big@duka.tz', amount);
    expect(answer.status).toBe(422);
    expect((field(answer, 'errors') as Record<string, string[]>)['amount']?.[0]).toMatch(message);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('keeps integer cents exact: ten credits of 0.10 and one of 0.20 make exactly 1.20', async () => {
    s = await startSandbox();
    await s.account('disbursement', 'cents@duka.tz');
    for (let i = 0; i < 10; i += 1) await credit('cents@duka.tz', 0.1);
    const last = await credit('cents@duka.tz', 0.2);
    expect(last.body).toEqual({ balance: 1.2 });
    const wallet = s.sandbox.inspect.wallet('disbursement', 'cents@duka.tz');
    expect(wallet?.ledger.every((entry) => Number.isInteger(entry.amount))).toBe(true);
    expect(wallet?.ledger.at(-1)?.balanceAfter).toBe(120);
  });

  it('the largest single credit moves the balance by exactly its amount', async () => {
    s = await startSandbox();
    await s.account('disbursement', 'max@duka.tz', 0.01);
    const answer = await credit('max@duka.tz', MAX_AMOUNT_TZS);
    expect(answer.body).toEqual({ balance: MAX_AMOUNT_TZS + 0.01 });
    expect((await credit('max@duka.tz', 0.01)).body).toEqual({ balance: MAX_AMOUNT_TZS + 0.02 });
  });
});

describe('a wallet never holds more than MAX_WALLET_BALANCE_TZS', () => {
  const seeded = (product: 'airtime' | 'disbursement', balance: number) =>
    startSandbox({
      seed: {
        accounts: [
          { product, email: 'full@duka.tz', password: PASSWORD, status: 'active', balance },
        ],
      },
    });

  it('a credit that would pass the maximum is a 422 (code wallet_limit) and changes nothing', async () => {
    s = await seeded('disbursement', MAX_WALLET_BALANCE_TZS - 1);
    expect((await credit('full@duka.tz', 1)).body).toEqual({ balance: MAX_WALLET_BALANCE_TZS });
    const before = s.sandbox.inspect.snapshot();
    const over = await credit('full@duka.tz', 0.01);
    expect(over.status).toBe(422);
    expect(field(over, 'code')).toBe('wallet_limit');
    expect((field(over, 'errors') as Record<string, string[]>)['amount']?.[0]).toMatch(
      /above its maximum of 1000000000000 TZS/,
    );
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
    const login = await s.call('POST', '/api/sandbox/disbursement/login', {
      email: 'full@duka.tz',
      password: PASSWORD,
    });
    expect(field(login, 'wallet')).toEqual({ balance: MAX_WALLET_BALANCE_TZS, currency: 'TZS' });
  });

  it('a recharge confirmation that would pass it is refused and the recharge stays pending', async () => {
    s = await seeded('airtime', MAX_WALLET_BALANCE_TZS - 100);
    const login = await s.call('POST', '/api/sandbox/airtime/login', {
      email: 'full@duka.tz',
      password: PASSWORD,
    });
    const token = field(login, 'token') as string;
    const started = await s.call(
      'POST',
      '/api/sandbox/airtime/customer/balancerecharge',
      { amount: 500 },
      bearer(token),
    );
    const controlNumber = field(started, 'controlNumber') as string;
    const refused = await s.call('POST', '/api/sandbox/airtime/callbackUrl', {
      controlNumber,
      status: true,
    });
    expect(refused.status).toBe(422);
    expect(field(refused, 'code')).toBe('wallet_limit');
    expect(s.sandbox.inspect.snapshot().recharges).toEqual(['pending']);
    // Spend some, and the same confirmation goes through.
    const bought = await s.call(
      'POST',
      '/api/sandbox/airtime/customer/payments',
      { msisdn: '255754123456', amount: 1000 },
      bearer(token),
    );
    expect(field(bought, 'status')).toBe('success');
    const confirmed = await s.call('POST', '/api/sandbox/airtime/callbackUrl', {
      controlNumber,
      status: true,
    });
    expect(field(confirmed, 'status')).toBe('success');
    expect(s.sandbox.inspect.wallet('airtime', 'full@duka.tz')?.balance).toBe(
      MAX_WALLET_BALANCE_TZS - 600,
    );
  });

  it('a seed balance above the maximum or with fractions of a cent is a bad option', async () => {
    await expect(seeded('disbursement', MAX_WALLET_BALANCE_TZS + 1)).rejects.toThrow(
      /seed\.accounts\.0\.balance/,
    );
    await expect(seeded('disbursement', 1.001)).rejects.toThrow(/two decimal/);
    s = await startSandbox();
  });
});

describe('maxAmount: 10 000 000 by default, like an operator’s per-transaction limit; up to MAX_AMOUNT_TZS', () => {
  const initiate = (token: string, amount: number) =>
    s.call(
      'POST',
      '/api/sandbox/initiate-payment/mno/',
      { amount, msisdn: '255754000998' },
      bearer(token),
    );

  it('by default refuses one cent above 10 000 000 with a 422 naming the limit, and changes nothing', async () => {
    s = await startSandbox();
    const token = await s.account('collection', 'low@duka.tz');
    expect((await initiate(token, 10_000_000)).status).toBe(200);
    const before = s.sandbox.inspect.snapshot();
    const over = await initiate(token, 10_000_000.01);
    expect(over.status).toBe(422);
    expect((field(over, 'errors') as Record<string, string[]>)['amount']).toEqual([
      'The amount may not be greater than 10000000.',
    ]);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('with maxAmount: MAX_AMOUNT_TZS accepts everything the SDK sends, and no more', async () => {
    s = await startSandbox({ maxAmount: MAX_AMOUNT_TZS });
    const token = await s.account('collection', 'max@duka.tz');
    const largest = await initiate(token, MAX_AMOUNT_TZS);
    expect(largest.status).toBe(200);
    expect(field(largest, 'amount')).toBe(MAX_AMOUNT_TZS);
    const over = await initiate(token, MAX_AMOUNT_TZS + 0.01);
    expect(over.status).toBe(422);
    expect((field(over, 'errors') as Record<string, string[]>)['amount']?.[0]).toMatch(
      /greater than 1000000000/,
    );
  });
});
