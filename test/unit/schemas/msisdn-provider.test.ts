import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  msisdnSchema,
  normalizeMsisdn,
  payableMsisdnSchema,
  providerNames,
  resolveProvider,
} from '../../../src/schemas/index.js';

describe('MSISDN: Tanzanian format, 255 followed by nine digits', () => {
  it.each(['255754123456', '255000000000', '255999999999'])('accepts %s', (value) => {
    expect(msisdnSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    ['0754123456', 'local form'],
    ['+255754123456', 'plus sign'],
    ['255 754 123 456', 'spaces'],
  ])('rejects %s (%s), naming normalizeMsisdn and the number it gives', (value) => {
    expect(msisdnSchema.safeParse(value).error?.issues[0]?.message).toBe(
      `The msisdn must be 255 followed by nine digits (write 255754123456 for ${value}, as normalizeMsisdn does).`,
    );
  });

  it.each([
    ['25575412345', 'eight digits after 255'],
    ['2557541234567', 'ten digits after 255'],
    ['254754123456', 'Kenyan country code'],
    ['255754l23456', 'a letter'],
    ['', 'empty'],
  ])('rejects %s (%s) with a message naming the rule', (value) => {
    const result = msisdnSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'The msisdn must be 255 followed by nine digits.',
    );
  });

  it('rejects non-strings', () => {
    expect(msisdnSchema.safeParse(255754123456).success).toBe(false);
  });
});

describe('normalizeMsisdn: what customers type becomes the wire format', () => {
  it.each([
    ['0754 123 456', '255754123456'],
    ['+255 754-123-456', '255754123456'],
    ['255754123456', '255754123456'],
    ['754123456', '255754123456'],
    ['(0713) 000.111', '255713000111'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeMsisdn(input)).toBe(expected);
  });

  it.each(['07541234', '+1 202 555 0100', 'abc', '', '00255754123456'])(
    '%s is not a number',
    (input) => {
      expect(normalizeMsisdn(input)).toBeUndefined();
    },
  );

  it('always yields a valid MSISDN or nothing', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const out = normalizeMsisdn(input);
        return out === undefined || msisdnSchema.safeParse(out).success;
      }),
    );
  });
});

describe('provider resolution from the prefix after 255', () => {
  const table: Array<[string, string]> = [
    ['74', 'vodacom'],
    ['75', 'vodacom'],
    ['76', 'vodacom'],
    ['79', 'vodacom'],
    ['68', 'airtel'],
    ['69', 'airtel'],
    ['78', 'airtel'],
    ['65', 'tigo'],
    ['67', 'tigo'],
    ['71', 'tigo'],
    ['77', 'tigo'],
    ['61', 'halotel'],
    ['62', 'halotel'],
    ['73', 'ttcl'],
  ];

  it.each(table)('prefix %s belongs to %s', (prefix, provider) => {
    expect(resolveProvider(`255${prefix}1234567`)).toBe(provider);
  });

  it('every other two-digit prefix resolves to no provider', () => {
    const known = new Set(table.map(([prefix]) => prefix));
    for (let n = 0; n < 100; n++) {
      const prefix = String(n).padStart(2, '0');
      if (known.has(prefix)) continue;
      expect(resolveProvider(`255${prefix}1234567`), prefix).toBeUndefined();
    }
  });

  it('a malformed number resolves to no provider', () => {
    expect(resolveProvider('0754123456')).toBeUndefined();
  });

  it('an unresolvable prefix is its own error, apart from a malformed number', () => {
    const unresolvable = payableMsisdnSchema.safeParse('255631234567');
    const malformed = payableMsisdnSchema.safeParse('25563123456');
    expect(unresolvable.error?.issues[0]?.message).toBe(
      'The msisdn does not belong to a supported mobile provider.',
    );
    expect(malformed.error?.issues[0]?.message).toBe(
      'The msisdn must be 255 followed by nine digits.',
    );
  });

  it('Tigo trades as Yas', () => {
    expect(providerNames.tigo).toBe('Yas');
  });
});
