import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRequestValidationError, type Pesakit } from '../../src/index.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

// A merchant writing JavaScript has no compiler to catch an excess property. `merchantReference`
// is their one protection against paying twice — a second call with the same reference is a
// DuplicateReferenceError, nothing sent. Put in the request object instead of the second
// argument, it would be silently dropped and every retry paid again under a fresh reference:
// a call option given in the request is refused before anything is stored or sent, naming
// where it belongs.

let harness: Harness;
let pesakit: Pesakit;
beforeAll(async () => {
  harness = await startHarness();
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: 'payouts@duka.co.tz',
    amount: 1_000_000,
  });
  pesakit = harness.client();
});
afterAll(() => harness.close());

/** Payouts the sandbox has received (its own records, not the SDK's). */
function payoutsSent(): number {
  return harness.sandbox.inspect.snapshot().disbursements;
}

describe('a call option put in the request object (JavaScript callers)', () => {
  it.each(['merchantReference', 'metadata', 'timeoutMs'])(
    '%s in the request: refused, nothing stored, nothing sent',
    async (option) => {
      const value =
        option === 'metadata' ? { order: '1' } : option === 'timeoutMs' ? 5000 : 'order-77';
      const request = { msisdn: '255754123456', amount: 5000, name: 'Asha', [option]: value };
      const before = payoutsSent();
      let thrown: unknown;
      try {
        await pesakit.disbursement.pay(request as Parameters<Pesakit['disbursement']['pay']>[0]);
      } catch (error) {
        thrown = error;
      }
      expect(isRequestValidationError(thrown)).toBe(true);
      const errors = (thrown as { errors: Record<string, string[]> }).errors;
      expect(errors[option]?.[0]).toMatch(/second argument/);
      expect(payoutsSent()).toBe(before);
      expect(await pesakit.store.records.list()).toEqual([]);
    },
  );

  it('the same reference in the second argument pays once; a retry is a DuplicateReferenceError', async () => {
    const before = payoutsSent();
    const request = { msisdn: '255754123456', amount: 5000, name: 'Asha' };
    await pesakit.disbursement.pay(request, { merchantReference: 'payout-once' });
    await expect(
      pesakit.disbursement.pay(request, { merchantReference: 'payout-once' }),
    ).rejects.toMatchObject({ name: 'DuplicateReferenceError' });
    expect(payoutsSent()).toBe(before + 1);
  });

  it('a collection refuses it too', async () => {
    await expect(
      pesakit.collection.initiateMno({
        amount: 1000,
        msisdn: '255754123456',
        merchantReference: 'order-9',
      } as Parameters<Pesakit['collection']['initiateMno']>[0]),
    ).rejects.toMatchObject({
      errors: { merchantReference: [expect.stringMatching(/second argument/)] },
    });
  });
});
