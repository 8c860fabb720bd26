import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, field, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
let token: string;
const email = 'airtime@duka.tz';
beforeEach(async () => {
  s = await startSandbox();
  token = await s.account('airtime', email, 10_000);
});
afterEach(() => s.close());

const buy = (body: unknown) =>
  s.call('POST', '/api/sandbox/airtime/customer/payments', body, bearer(token));

describe('airtime purchase rule 1: validate the payload (msisdn, positive amount)', () => {
  it.each([
    [{ amount: 500 }, 'msisdn'],
    [{ msisdn: '255754123456', amount: -5 }, 'amount'],
    [{ msisdn: '255754123456', amount: '500' }, 'amount'],
    [{ msisdn: '0754123456', amount: 500 }, 'msisdn'],
    [{ msisdn: '255701123456', amount: 500 }, 'msisdn'],
  ])('rejects %j with 422 naming %s, recording nothing', async (body, invalid) => {
    const before = s.sandbox.inspect.snapshot();
    const answer = await buy(body);
    expect(answer.status).toBe(422);
    expect(field(answer, 'errors')).toHaveProperty(invalid);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });
});

describe('airtime purchase rule 3: when the amount exceeds the balance, reject', () => {
  it('answers 422 insufficient_funds and records nothing, debits nothing', async () => {
    const before = s.sandbox.inspect.snapshot();
    const answer = await buy({ msisdn: '255754123456', amount: 10_000.01 });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: 'insufficient_funds',
      errors: { amount: expect.any(Array) },
    });
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });
});

describe('airtime purchase rules 4–7: record, vendor, debit or fail, SMS', () => {
  it('on vendor success deducts the wallet, marks success with the provider, sends a confirmation SMS', async () => {
    const answer = await buy({ msisdn: '255684123456', amount: 2500 });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'success',
      payment: { provider: 'airtel', status: 'success', amount: 2500 },
    });
    expect(s.sandbox.inspect.wallet('airtime', email)?.balance).toBe(7500);
    const sms = s.sandbox.inspect.sms().at(-1);
    expect(sms).toMatchObject({ to: '255684123456', product: 'airtime' });
    expect(sms?.text).toMatch(/received TZS 2500/);
  });

  it('on vendor failure (number ending 999) marks failed with its message, leaves the wallet, sends a failure SMS', async () => {
    const answer = await buy({ msisdn: '255754123999', amount: 2500 });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'failed',
      payment: { status: 'failed', provider: 'vodacom' },
    });
    expect(field(answer, 'message')).toMatch(/rejected/);
    expect(s.sandbox.inspect.wallet('airtime', email)?.balance).toBe(10_000);
    expect(s.sandbox.inspect.sms().at(-1)?.text).toMatch(/failed/);
  });

  it('never lets concurrent purchases spend more than the balance', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => buy({ msisdn: '255754123456', amount: 1000 })),
    );
    const ok = answers.filter((a) => a.status === 200).length;
    expect(ok).toBe(10);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(20);
    expect(s.sandbox.inspect.wallet('airtime', email)?.balance).toBe(0);
  });
});

describe('wallet recharge: balancerecharge, then callbackUrl {controlNumber, status}', () => {
  const recharge = async (amount: number) => {
    const answer = await s.call(
      'POST',
      '/api/sandbox/airtime/customer/balancerecharge',
      { amount },
      bearer(token),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'pending',
      amount,
      controlNumber: expect.stringMatching(/^99\d{10}$/),
    });
    return field(answer, 'controlNumber') as string;
  };
  const confirm = (body: unknown) => s.call('POST', '/api/sandbox/airtime/callbackUrl', body);

  it('status true marks success and credits the wallet once, however many times it arrives', async () => {
    const controlNumber = await recharge(5000);
    expect((await confirm({ controlNumber, status: true })).body).toMatchObject({
      status: 'success',
    });
    expect((await confirm({ controlNumber, status: true })).status).toBe(200);
    expect(s.sandbox.inspect.wallet('airtime', email)?.balance).toBe(15_000);
  });

  it('credits once when the same callback arrives concurrently', async () => {
    const controlNumber = await recharge(4000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => confirm({ controlNumber, status: true })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(s.sandbox.inspect.wallet('airtime', email)?.balance).toBe(14_000);
    expect(
      s.sandbox.inspect.wallet('airtime', email)?.ledger.filter((e) => e.kind === 'recharge'),
    ).toHaveLength(1);
  });

  it('status false fails the recharge without credit; a later true changes nothing', async () => {
    const controlNumber = await recharge(3000);
    expect((await confirm({ controlNumber, status: false })).body).toMatchObject({
      status: 'failed',
    });
    expect((await confirm({ controlNumber, status: true })).body).toMatchObject({
      status: 'failed',
    });
    expect(s.sandbox.inspect.wallet('airtime', email)?.balance).toBe(10_000);
  });

  it('answers a missing controlNumber with 422 and an unknown one with 404', async () => {
    const missing = await confirm({ status: true });
    expect(missing.status).toBe(422);
    expect(field(missing, 'errors')).toHaveProperty('controlNumber');
    expect((await confirm({ controlNumber: '990000000000', status: true })).status).toBe(404);
  });
});

describe('GET user returns the authenticated airtime user with the wallet balance', () => {
  it('shows the balance', async () => {
    const answer = await s.call('GET', '/api/sandbox/airtime/user', undefined, bearer(token));
    expect(answer.body).toMatchObject({
      user: { email, role_id: 2, status: 'active', wallet: { balance: 10_000 } },
    });
  });
});
