import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newMerchantReference } from '../../src/resources/merchant-reference.js';

describe('generated merchant references are monotonic ULIDs', () => {
  it('valid ULIDs carrying the creation time', () => {
    const now = Date.UTC(2026, 0, 15, 9, 30);
    const reference = newMerchantReference(now);
    expect(isValid(reference)).toBe(true);
    expect(decodeTime(reference)).toBe(now);
  });

  it('a burst within one millisecond still sorts in creation order, without duplicates', () => {
    const now = Date.now() + 60_000;
    const burst = Array.from({ length: 1_000 }, () => newMerchantReference(now));
    expect(new Set(burst).size).toBe(burst.length);
    expect([...burst].sort()).toEqual(burst);
    expect(burst.every((reference) => decodeTime(reference) === now)).toBe(true);
  });
});
