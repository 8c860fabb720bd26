import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { bearer, field, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
const email = 'payouts@duka.tz';
afterEach(() => s.close());

async function start(balance: number, options: SandboxOptions = {}) {
  s = await startSandbox(options);
  return s.account('disbursement', email, balance);
}
const pay = (token: string, body: unknown) =>
  s.call('POST', '/api/sandbox/disbursement/payment', body, bearer(token));
const balance = () => s.sandbox.inspect.wallet('disbursement', email)?.balance;

describe('disbursement processing order 1: validate the payload; reject malformed input (422)', () => {
  it.each([
    [{ msisdn: '255754123456', amount: 1000 }, 'name'],
    [{ msisdn: '255754123456', amount: 0, name: 'Juma' }, 'amount'],
    [{ msisdn: 255754123456, amount: 1000, name: 'Juma' }, 'msisdn'],
    [{ msisdn: '255754123456', amount: 10_000_001, name: 'Juma' }, 'amount'],
  ])('rejects %j naming %s and changes nothing', async (body, invalid) => {
    const token = await start(50_000);
    const before = s.sandbox.inspect.snapshot();
    const answer = await pay(token, body);
    expect(answer.status).toBe(422);
    expect(field(answer, 'errors')).toHaveProperty(invalid);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });
});

describe('disbursement processing order 2: MSISDN format and provider (400)', () => {
  it.each([
    ['0754123456', /Invalid MSISDN/],
    ['25575412345', /Invalid MSISDN/],
    ['255701123456', /Unsupported provider/],
  ])('answers %s with 400 and changes nothing', async (msisdn, message) => {
    const token = await start(50_000);
    const before = s.sandbox.inspect.snapshot();
    const answer = await pay(token, { msisdn, amount: 1000, name: 'Juma' });
    expect(answer.status).toBe(400);
    expect(field(answer, 'message')).toMatch(message);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });
});

describe('disbursement processing order 3: the wallet must cover amount plus charge (422)', () => {
  it('default charge: 1% rounded up to a whole shilling, at least 100 TZS', async () => {
    const token = await start(100_000);
    expect(
      field(await pay(token, { msisdn: '255754123456', amount: 1000, name: 'A' }), 'payment'),
    ).toMatchObject({ charge: 100 });
    expect(
      field(await pay(token, { msisdn: '255754123456', amount: 12_345, name: 'B' }), 'payment'),
    ).toMatchObject({ charge: 124 });
    expect(balance()).toBe(100_000 - 1000 - 100 - 12_345 - 124);
  });

  it('refuses amount + charge above the balance with insufficient_funds, changing nothing', async () => {
    const token = await start(10_000);
    const before = s.sandbox.inspect.snapshot();
    // 9 950 + 100 charge = 10 050 > 10 000
    const answer = await pay(token, { msisdn: '255754123456', amount: 9950, name: 'Juma' });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'insufficient_funds' });
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
    expect((await pay(token, { msisdn: '255754123456', amount: 9900, name: 'Juma' })).status).toBe(
      200,
    );
    expect(balance()).toBe(0);
  });

  it('uses a configured charge: {percent, minimum} or a function', async () => {
    const token = await start(100_000, { charge: { percent: 2, minimum: 50 } });
    expect(
      field(await pay(token, { msisdn: '255754123456', amount: 1000, name: 'A' }), 'payment'),
    ).toMatchObject({ charge: 50 });
    await s.close();
    const flat = await start(100_000, { charge: () => 250 });
    expect(
      field(await pay(flat, { msisdn: '255754123456', amount: 1000, name: 'A' }), 'payment'),
    ).toMatchObject({ charge: 250 });
  });
});

describe('disbursement processing order 4–8: record, gateway, debit + complete, SMS, response', () => {
  it('completes: wallet debited, recipient SMS with reference and amount, success payload', async () => {
    const token = await start(50_000);
    const answer = await pay(token, { msisdn: '255654123456', amount: 20_000, name: 'Neema' });
    expect(answer.status).toBe(200);
    const reference = (field(answer, 'response') as { reference: string }).reference;
    expect(answer.body).toMatchObject({
      response: { status: true, reference: expect.stringMatching(/^DSB/) },
      payment: {
        status: 'completed',
        refid: reference,
        provider: 'tigo',
        amount: 20_000,
        charge: 200,
      },
    });
    expect(balance()).toBe(29_800);
    const sms = s.sandbox.inspect.sms().at(-1);
    expect(sms).toMatchObject({ to: '255654123456', product: 'disbursement', reference });
    expect(sms?.text).toContain(reference);
    expect(sms?.text).toContain('20000');
    const ledger = s.sandbox.inspect.wallet('disbursement', email)?.ledger ?? [];
    expect(ledger.map((e) => e.kind)).toEqual(['credit', 'payout', 'charge']);
  });

  it('upstream failure (number ending 999): 400, wallet untouched, record kept as failed', async () => {
    const token = await start(50_000);
    const answer = await pay(token, { msisdn: '255754123999', amount: 1000, name: 'Juma' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'upstream_failed' });
    expect(balance()).toBe(50_000);
    const history = await s.call(
      'POST',
      '/api/sandbox/disbursement/getPayments',
      {},
      bearer(token),
    );
    expect(history.body).toMatchObject({
      payments: { data: [{ status: 'failed', msisdn: '255754123999' }] },
    });
    expect(s.sandbox.inspect.sms()).toHaveLength(0);
  });
});

describe('getPayments lists the user’s payouts latest first (Laravel paginator)', () => {
  it('pages with page/per_page, latest first, and shows only the caller’s payouts', async () => {
    const token = await start(100_000);
    for (const amount of [1000, 2000, 3000]) {
      await pay(token, { msisdn: '255754123456', amount, name: 'X' });
    }
    const other = await s.account('disbursement', 'other@duka.tz', 10_000);
    await pay(other, { msisdn: '255754123456', amount: 500, name: 'Y' });
    const first = await s.call(
      'POST',
      '/api/sandbox/disbursement/getPayments',
      { per_page: 2 },
      bearer(token),
    );
    expect(first.body).toMatchObject({
      payments: { current_page: 1, per_page: 2, total: 3, last_page: 2 },
    });
    const amounts = (p: unknown) =>
      (p as { payments: { data: { amount: number }[] } }).payments.data.map((d) => d.amount);
    expect(amounts(first.body)).toEqual([3000, 2000]);
    const second = await s.call(
      'POST',
      '/api/sandbox/disbursement/getPayments',
      { page: 2, per_page: 2 },
      bearer(token),
    );
    expect(amounts(second.body)).toEqual([1000]);
    const bodyless = await s.call(
      'POST',
      '/api/sandbox/disbursement/getPayments',
      undefined,
      bearer(token),
    );
    expect(bodyless.body).toMatchObject({ payments: { per_page: 15, total: 3 } });
    const tooMany = await s.call(
      'POST',
      '/api/sandbox/disbursement/getPayments',
      { per_page: 101 },
      bearer(token),
    );
    expect(tooMany.status).toBe(422);
  });
});

describe('disbursement errors: 401 for an invalid or missing token', () => {
  it('refuses payment without a token', async () => {
    await start(1000);
    const answer = await s.call('POST', '/api/sandbox/disbursement/payment', {
      msisdn: '255754123456',
      amount: 100,
      name: 'x',
    });
    expect(answer.status).toBe(401);
  });
});
