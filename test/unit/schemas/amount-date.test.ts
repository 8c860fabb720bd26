import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountSchema,
  amountToCents,
  centsToAmount,
  engineDateSchema,
  fromEngineDate,
  MAX_AMOUNT_TZS,
  sameAmount,
  toEngineDate,
} from '../../../src/schemas/index.js';

describe('TZS amounts: positive, finite, at most two decimals', () => {
  it.each([1, 100, 1500.5, 1500.25, 0.01, 10_000_000])('accepts %s', (value) => {
    expect(amountSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    [0, 'The amount must be greater than 0.'],
    [-100, 'The amount must be greater than 0.'],
    [10.005, 'The amount may have at most two decimal places.'],
    [Number.POSITIVE_INFINITY, 'The amount must be a finite number.'],
    [Number.NaN, 'The amount must be a number.'],
    [1e21, 'The amount may not be greater than 1000000000.'],
    [1_000_000_000.01, 'The amount may not be greater than 1000000000.'],
    [1e308, 'The amount may not be greater than 1000000000.'],
  ])('rejects %s: %s', (value, message) => {
    const result = amountSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it('rejects a numeric string: amounts are JSON numbers', () => {
    expect(amountSchema.safeParse('1000').error?.issues[0]?.message).toBe(
      'The amount must be a number.',
    );
  });

  it('any whole number of cents is a valid amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_AMOUNT_TZS * 100 }),
        (cents) => amountSchema.safeParse(cents / 100).success,
      ),
    );
  });

  it('the bound itself is valid, and every valid amount converts to cents and back exactly', () => {
    expect(amountSchema.safeParse(MAX_AMOUNT_TZS).success).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT_TZS * 100 }), (cents) => {
        const amount = cents / 100;
        return (
          amountSchema.safeParse(amount).success &&
          amountToCents(amount) === cents &&
          centsToAmount(amountToCents(amount)) === amount
        );
      }),
    );
  });

  it('sameAmount compares cents, so float noise is not a mismatch but a cent is', () => {
    expect(sameAmount(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameAmount(1000, 1000.01)).toBe(false);
  });
});

describe('engine dates: YYYY-MM-DD HH:MM:SS', () => {
  it.each(['2024-02-29 23:59:59', '2025-01-01 00:00:00'])('accepts %s', (value) => {
    expect(engineDateSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    '2023-02-29 10:00:00',
    '2024-13-01 10:00:00',
    '2024-01-01 24:00:00',
    '2024-01-01T10:00:00',
    '2024-01-01 10:00',
    '01-01-2024 10:00:00',
  ])('rejects %s', (value) => {
    expect(engineDateSchema.safeParse(value).success).toBe(false);
  });

  it('formats and reads back in East Africa Time (UTC+3)', () => {
    const instant = new Date('2024-06-01T21:30:15Z');
    expect(toEngineDate(instant)).toBe('2024-06-02 00:30:15');
    expect(fromEngineDate('2024-06-02 00:30:15').toISOString()).toBe(instant.toISOString());
  });

  it('round-trips every second-precision instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000 }), (seconds) => {
        const instant = new Date(seconds * 1000);
        const text = toEngineDate(instant);
        return (
          engineDateSchema.safeParse(text).success &&
          fromEngineDate(text).getTime() === instant.getTime()
        );
      }),
    );
  });
});
