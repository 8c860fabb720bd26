import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsufficientFundsError, PermissionError } from '../../src/errors/index.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

describe('airtime: register, activate, log in', () => {
  it('a pending account is refused with a PermissionError until activated', async () => {
    const pesakit = harness.client({ credentials: {} });
    const newcomer = {
      name: 'Kibanda',
      email: 'kibanda@duka.co.tz',
      phone: '255754000888',
      password: 'kibanda-secret',
    };
    const registered = await pesakit.airtime.register(newcomer);
    expect(registered.user).toMatchObject({ role_id: 2, status: 'pending' });

    const refused = await pesakit.airtime
      .login({ email: newcomer.email, password: newcomer.password })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(PermissionError);

    await harness.control('accounts', {
      product: 'airtime',
      email: newcomer.email,
      status: 'active',
    });
    const login = await pesakit.airtime.login({
      email: newcomer.email,
      password: newcomer.password,
    });
    expect(login.user.wallet.balance).toBe(0);
  });
});

describe('airtime: a wallet that sells airtime and is topped up by recharge', () => {
  it('purchase beyond the balance → InsufficientFundsError, record failed, nothing debited', async () => {
    const pesakit = harness.client();
    const error = await pesakit.airtime
      .purchase({ msisdn: '255754123456', amount: 1_000 }, { merchantReference: 'air-poor' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect((await pesakit.store.records.get('air-poor'))?.status).toBe('failed');
    expect((await pesakit.airtime.user()).user.wallet.balance).toBe(0);
  });

  it('recharge → confirm by controlNumber → the wallet is credited once and the record succeeds', async () => {
    const pesakit = harness.client();
    const recharge = await pesakit.airtime.recharge(
      { amount: 10_000 },
      { merchantReference: 'topup-1' },
    );
    expect(recharge.record).toMatchObject({
      flow: 'airtime_recharge',
      status: 'pending',
      controlNumber: recharge.controlNumber,
    });

    const confirmed = await pesakit.airtime.confirmRecharge({
      controlNumber: recharge.controlNumber,
      status: true,
    });
    expect(confirmed.status).toBe('success');
    await pesakit.airtime.confirmRecharge({ controlNumber: recharge.controlNumber, status: true });
    expect((await pesakit.airtime.user()).user.wallet.balance).toBe(10_000);
    expect((await pesakit.store.records.find({ value: recharge.controlNumber }))?.status).toBe(
      'success',
    );
  });

  it('a purchase debits the wallet and succeeds; a failing vendor (…999) fails without a debit', async () => {
    const pesakit = harness.client();
    const sale = await pesakit.airtime.purchase(
      { msisdn: '255754123456', amount: 2_500 },
      { merchantReference: 'air-1' },
    );
    expect(sale.status).toBe('success');
    expect(sale.record).toMatchObject({
      status: 'success',
      paymentReference: sale.payment?.reference,
    });
    expect((await pesakit.airtime.user()).user.wallet.balance).toBe(7_500);

    const failed = await pesakit.airtime.purchase(
      { msisdn: '255754000999', amount: 500 },
      { merchantReference: 'air-2' },
    );
    expect(failed.status).toBe('failed');
    expect(failed.record.status).toBe('failed');
    expect(failed.record.statusReason).toBe(failed.message);
    expect((await pesakit.airtime.user()).user.wallet.balance).toBe(7_500);
  });
});
