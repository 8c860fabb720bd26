import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  merchantReferenceProblem,
  newMerchantReference,
} from '../../src/resources/merchant-reference.js';

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

describe('the random part of generated merchant references', () => {
  it('differs between references made in different milliseconds, across pool refills', () => {
    // 16 random characters a reference and 4,096 bytes a batch: 1,000 references refill the
    // batch several times; a byte reused across references would show up as repeats.
    const start = Date.now() + 120_000;
    const references = Array.from({ length: 1_000 }, (_, i) => newMerchantReference(start + i));
    const randomParts = references.map((reference) => reference.slice(10));
    expect(new Set(randomParts).size).toBe(references.length);
    expect(references.every((reference) => isValid(reference))).toBe(true);
  });

  it('uses every character of the alphabet, about evenly', () => {
    const start = Date.now() + 240_000;
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) {
      for (const char of newMerchantReference(start + i).slice(10)) {
        counts.set(char, (counts.get(char) ?? 0) + 1);
      }
    }
    // 32,000 characters over 32 symbols: 1,000 each expected; a broken generator (a constant
    // byte, a skewed scale) leaves symbols out or piles onto a few.
    expect(counts.size).toBe(32);
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
    for (const count of counts.values()) expect(count).toBeLessThan(1_200);
  });
});

describe('a merchant reference given as a call option', () => {
  it('names a control character and where it is (a tab too); other refusals name the allowed set', () => {
    expect(merchantReferenceProblem('order\u00001')).toBe(
      'The merchantReference may not contain control characters (found U+0000 at position 6).',
    );
    expect(merchantReferenceProblem('order\t1')).toBe(
      'The merchantReference may not contain control characters (found U+0009 at position 6).',
    );
    expect(merchantReferenceProblem('order\u00851')).toBe(
      'The merchantReference may not contain control characters (found U+0085 at position 6).',
    );
    expect(merchantReferenceProblem('order 1')).toBe(
      'The merchantReference must be 1–64 letters, digits, or _ - : .',
    );
    expect(merchantReferenceProblem('order-1001:retry.2')).toBeUndefined();
  });
});
