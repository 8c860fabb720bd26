import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/reconciler/options.js';
import { exhausted, firstDueAt, nextCheckAt } from '../../src/reconciler/schedule.js';
import type { TransactionRecord } from '../../src/references/index.js';

const t0 = new Date('2025-03-01T08:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

function record(overrides: Partial<TransactionRecord>): TransactionRecord {
  return {
    merchantReference: 'order-1',
    product: 'collection',
    flow: 'mno',
    amount: 5_000,
    msisdn: '255754123456',
    status: 'pending',
    statusReason: null,
    controlNumber: '991234567890',
    paymentReference: null,
    externalReference: null,
    txnid: null,
    refid: null,
    createdAt: t0,
    updatedAt: t0,
    attemptedAt: t0,
    finalAt: null,
    provider: 'vodacom',
    lastCheckedAt: null,
    checkCount: 0,
    lastPayload: null,
    metadata: {},
    ...overrides,
  } as TransactionRecord;
}

describe('schedules', () => {
  const options = resolveOptions({
    schedules: { pending: [1_000, 10_000, 60_000], unknown: [500, 5_000] },
    jitter: 0,
    maxAttempts: 5,
    maxAgeMs: 3_600_000,
  });

  it('pending and unknown follow their own tiers; past the last tier the last repeats', () => {
    const pending = record({});
    // The first delay comes before the first check (firstDueAt); after check n, delay n.
    expect(nextCheckAt(pending, 1, options, t0)).toEqual(at(10_000));
    expect(nextCheckAt(pending, 2, options, t0)).toEqual(at(60_000));
    expect(nextCheckAt(pending, 9, options, t0)).toEqual(at(60_000));
    const unknown = record({ status: 'unknown' });
    expect(nextCheckAt(unknown, 1, options, t0)).toEqual(at(5_000));
    expect(nextCheckAt(unknown, 7, options, t0)).toEqual(at(5_000));
  });

  it('jitter moves each wait by at most the fraction, both ways', () => {
    const jittered = resolveOptions({ schedules: { pending: [1, 10_000] }, jitter: 0.2 });
    const pending = record({});
    expect(nextCheckAt(pending, 1, jittered, t0, () => 0)).toEqual(at(8_000));
    expect(nextCheckAt(pending, 1, jittered, t0, () => 0.5)).toEqual(at(10_000));
    expect(nextCheckAt(pending, 1, jittered, t0, () => 0.999_999)).toEqual(at(12_000));
  });

  it('a record is first due one first-tier delay after its attempt', () => {
    expect(firstDueAt(record({}), options, at(10))).toEqual(at(1_000));
    expect(firstDueAt(record({}), options, at(1_000))).toBeUndefined();
    expect(firstDueAt(record({ checkCount: 1 }), options, at(10))).toBeUndefined();
  });

  it('a young initiating record is looked at again soon; an old one is due', () => {
    const initiating = record({ status: 'initiating', attemptedAt: null });
    expect(firstDueAt(initiating, options, at(10))).toEqual(at(1_010));
    expect(firstDueAt(initiating, options, at(59_500))).toEqual(at(60_000));
    expect(firstDueAt(initiating, options, at(60_000))).toBeUndefined();
  });

  it('is exhausted at the maximum attempts or age', () => {
    expect(exhausted(record({ checkCount: 3 }), options, at(1_000))).toBe(false);
    expect(exhausted(record({ checkCount: 4 }), options, at(1_000))).toBe(true);
    expect(exhausted(record({ checkCount: 0 }), options, at(3_600_000))).toBe(true);
  });
});
