import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPesakitError, isRequestValidationError, type Pesakit } from '../../src/index.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

// A merchant writing JavaScript can pass `null` where TypeScript would not let them: a request
// built by a helper that returned null, options left as null. Every public method must answer
// with the SDK's own error naming what is wrong — not a TypeError from reading a property of
// null — and store and send nothing. (`null` options mean no options, as `undefined` does.)

let harness: Harness;
let pesakit: Pesakit;
beforeAll(async () => {
  harness = await startHarness();
  pesakit = harness.client();
});
afterAll(() => harness.close());

/** What the sandbox has received and the store holds, to show nothing moved. */
async function footprint() {
  const snapshot = harness.sandbox.inspect.snapshot();
  return {
    collections: snapshot.collections,
    disbursements: snapshot.disbursements,
    open: await pesakit.store.records.list(),
  };
}

const nullRequests: Array<[string, (p: Pesakit) => Promise<unknown>]> = [
  ['collection.initiateMno', (p) => p.collection.initiateMno(null as never)],
  ['collection.initiateBank', (p) => p.collection.initiateBank(null as never)],
  ['collection.createCheckout', (p) => p.collection.createCheckout(null as never)],
  ['collection.payMobile', (p) => p.collection.payMobile(null as never)],
  ['collection.checkoutMno', (p) => p.collection.checkoutMno(null as never)],
  ['collection.status', (p) => p.collection.status(null as never)],
  ['airtime.purchase', (p) => p.airtime.purchase(null as never)],
  ['airtime.recharge', (p) => p.airtime.recharge(null as never)],
  ['airtime.confirmRecharge', (p) => p.airtime.confirmRecharge(null as never)],
  ['disbursement.pay', (p) => p.disbursement.pay(null as never)],
  ['disbursement.payments', (p) => p.disbursement.payments(null as never)],
  ['collection.portalSession', (p) => p.collection.portalSession(null as never)],
  ['collection.testProvider', (p) => p.collection.testProvider(null as never)],
  ['airtime.register', (p) => p.airtime.register(null as never)],
  ['disbursement.register', (p) => p.disbursement.register(null as never)],
];

describe('null for a request (JavaScript callers)', () => {
  it.each(nullRequests)(
    '%s(null) is a RequestValidationError; nothing stored or sent',
    async (_name, call) => {
      const before = await footprint();
      let thrown: unknown;
      try {
        await call(pesakit);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).not.toBeInstanceOf(TypeError);
      expect(isRequestValidationError(thrown)).toBe(true);
      expect(await footprint()).toEqual(before);
    },
  );
});

describe('null for the options (JavaScript callers)', () => {
  it('a money call with null options pays as with none', async () => {
    const payment = await pesakit.collection.initiateMno(
      { amount: 1000, msisdn: '255754000998' },
      null as never,
    );
    expect(payment.record.status).toBe('pending');
  });

  it('a login or a user read with null options works as with none', async () => {
    expect((await pesakit.collection.login(undefined, null as never)).token).toEqual(
      expect.any(String),
    );
    expect((await pesakit.disbursement.user(null as never)).wallet).toBeDefined();
  });

  it('a read with null options reads as with none', async () => {
    const payment = await pesakit.collection.initiateMno({ amount: 1000, msisdn: '255754000998' });
    const status = await pesakit.collection.status(payment.controlNumber, null as never);
    expect(status.data.status).toBe('pending');
    const page = await pesakit.disbursement.payments({}, null as never);
    expect(isPesakitError(page)).toBe(false);
  });
});
