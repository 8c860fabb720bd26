import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPaid, type PaidRecord, type PaymentObservation } from '../../../src/ledger/is-paid.js';

const fields = [
  'controlNumber',
  'paymentReference',
  'externalReference',
  'txnid',
  'refid',
] as const;

const record: PaidRecord = {
  amount: 5000,
  controlNumber: '991100223344',
  paymentReference: 'ENG-77881',
  externalReference: null,
  txnid: null,
  refid: null,
};

const observed: PaymentObservation = {
  controlNumber: '991100223344',
  paymentReference: 'ENG-77881',
  amount: 5000,
  status: 'success',
};

describe('spec rule 5: paid only when the references match', () => {
  it('is paid when every reference both sides know is equal', () => {
    expect(isPaid(record, observed)).toEqual({ paid: true });
  });

  it('one shared reference is enough; references only one side knows are ignored', () => {
    expect(
      isPaid(record, {
        amount: 5000,
        status: 'success',
        paymentReference: 'ENG-77881',
        txnid: 'T-9',
      }),
    ).toEqual({
      paid: true,
    });
  });

  it('a shared reference that differs is a mismatch, naming the field', () => {
    expect(isPaid(record, { ...observed, paymentReference: 'ENG-00000' })).toEqual({
      paid: false,
      reason: 'reference_mismatch',
      field: 'paymentReference',
    });
  });

  it('no reference known to both sides proves nothing', () => {
    expect(isPaid(record, { amount: 5000, status: 'success', externalReference: 'ext-1' })).toEqual(
      {
        paid: false,
        reason: 'no_common_reference',
      },
    );
    expect(isPaid(record, { amount: 5000, status: 'success', controlNumber: null })).toEqual({
      paid: false,
      reason: 'no_common_reference',
    });
  });

  it('a reference mismatch is reported before an amount or status problem', () => {
    const verdict = isPaid(record, {
      ...observed,
      controlNumber: 'other',
      amount: 1,
      status: 'failed',
    });
    expect(verdict).toMatchObject({ paid: false, reason: 'reference_mismatch' });
  });
});

describe('spec rule 5: paid only when the amount is equal', () => {
  it('compares to the cent, without float drift', () => {
    expect(isPaid({ ...record, amount: 0.3 }, { ...observed, amount: 0.1 + 0.2 })).toEqual({
      paid: true,
    });
  });

  it.each([4999.99, 5000.01, 2500, 0, Number.NaN])(
    'an observed amount of %s is not the stored 5000',
    (amount) => {
      expect(isPaid(record, { ...observed, amount })).toEqual({
        paid: false,
        reason: 'amount_mismatch',
      });
    },
  );
});

describe('spec rule 5: paid only when the status is successful', () => {
  it.each(['success', 'completed', true] as const)('%s is successful', (status) => {
    expect(isPaid(record, { ...observed, status })).toEqual({ paid: true });
  });

  it.each(['pending', 'failed', 'SUCCESS', '', false] as const)('%s is not', (status) => {
    expect(isPaid(record, { ...observed, status })).toEqual({
      paid: false,
      reason: 'not_successful',
    });
  });
});

describe('isPaid as a property: any single change un-proves a payment', () => {
  const reference = fc.stringMatching(/^[A-Z0-9-]{1,20}$/);
  const proven = fc
    .record({
      cents: fc.integer({ min: 1, max: 10_000_000_000 }),
      refs: fc.record(
        Object.fromEntries(
          fields.map((field) => [field, fc.option(reference, { nil: null })]),
        ) as Record<(typeof fields)[number], fc.Arbitrary<string | null>>,
      ),
      shared: fc.constantFrom(...fields),
      sharedValue: reference,
      status: fc.constantFrom<string | boolean>('success', 'completed', true),
    })
    .map(({ cents, refs, shared, sharedValue, status }) => {
      const stored: PaidRecord = { amount: cents / 100, ...refs, [shared]: sharedValue };
      const observation: PaymentObservation = {
        amount: cents / 100,
        status,
        ...refs,
        [shared]: sharedValue,
      };
      return { stored, observation };
    });

  it('the observation of the stored payment itself is paid', () => {
    fc.assert(
      fc.property(proven, ({ stored, observation }) => isPaid(stored, observation).paid === true),
    );
  });

  it('an amount one cent off is never paid', () => {
    fc.assert(
      fc.property(proven, fc.constantFrom(-1, 1), ({ stored, observation }, delta) => {
        const verdict = isPaid(stored, {
          ...observation,
          amount: (Math.round(observation.amount * 100) + delta) / 100,
        });
        return !verdict.paid && verdict.reason === 'amount_mismatch';
      }),
    );
  });

  it('changing any reference both sides know is never paid', () => {
    fc.assert(
      fc.property(proven, fc.nat(), ({ stored, observation }, pick) => {
        const sharedFields = fields.filter(
          (field) => stored[field] != null && observation[field] != null,
        );
        const field = sharedFields[pick % sharedFields.length]!;
        const verdict = isPaid(stored, { ...observation, [field]: `${observation[field]}X` });
        return !verdict.paid && verdict.reason === 'reference_mismatch' && verdict.field === field;
      }),
    );
  });

  it('any status other than success, completed or true is never paid', () => {
    fc.assert(
      fc.property(
        proven,
        fc
          .oneof(fc.string(), fc.constant(false))
          .filter((s) => s !== 'success' && s !== 'completed'),
        ({ stored, observation }, status) => {
          const verdict = isPaid(stored, { ...observation, status });
          return !verdict.paid && verdict.reason === 'not_successful';
        },
      ),
    );
  });
});
