import { describe, expect, it } from 'vitest';
import { airtimeBulkRowSchema } from '../../../src/schemas/airtime-bulk.js';
import {
  findControlCharacter,
  showControlCharacters,
} from '../../../src/schemas/control-characters.js';
import {
  disbursementRequestSchema,
  fieldErrorsFrom,
  registerRequestSchema,
} from '../../../src/schemas/index.js';
import { payoutBulkRowSchema } from '../../../src/schemas/payout-bulk.js';

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
const hex = (character: string) =>
  `U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;

const c0 = range(0x00, 0x1f);
const c0WithoutTab = c0.filter((character) => character !== '\t');
const del = '\u007f';
const c1 = range(0x80, 0x9f);
const everyControlCharacter = [...c0, del, ...c1];

const ordinaryNames = [
  'Zawadi Mwakyusa',
  'José',
  "Bahati Ng'wandu",
  'Mwanaisha Kombo-Mfaume',
  'Zoë Çelik',
  'Ñandú Đorđević',
  'Duka la Mama Neema & Wana',
  '山田 太郎',
  'Amani 🌍',
];

describe('the rule: C0, DEL and C1 are control characters; a tab only where the field allows it', () => {
  it.each(everyControlCharacter.map((character) => [hex(character), character]))(
    '%s is found, with its position counted from 1',
    (code, character) => {
      expect(findControlCharacter(`a${character}b`)).toBe(`${code} at position 2`);
    },
  );

  it('a tab is found unless the field allows it; every other control character still is', () => {
    expect(findControlCharacter('a\tb')).toBe('U+0009 at position 2');
    expect(findControlCharacter('a\tb', { tab: true })).toBeUndefined();
    for (const character of [...c0WithoutTab, del, ...c1]) {
      expect(findControlCharacter(`\ta${character}`, { tab: true })).toBe(
        `${hex(character)} at position 3`,
      );
    }
  });

  it('ordinary names pass, accents, apostrophes and scripts beyond Latin included; the first control character is the one named', () => {
    for (const name of ordinaryNames) expect(findControlCharacter(name)).toBeUndefined();
    // The neighbours of each range are text: space, tilde, no-break space.
    expect(findControlCharacter(' ~\u00a0\u00a1')).toBeUndefined();
    // Counted in characters as a person counts them: an emoji is one.
    expect(findControlCharacter('🌍\u0000')).toBe('U+0000 at position 2');
    expect(findControlCharacter('ab\u001b[31m\u0000')).toBe('U+001B at position 3');
  });

  it('a message can quote text holding control characters: each one written as \\u0000', () => {
    expect(showControlCharacters('a\u0000b\tc\u007f\u0085é')).toBe(
      'a\\u0000b\\u0009c\\u007F\\u0085é',
    );
    expect(showControlCharacters('Zawadi')).toBe('Zawadi');
  });
});

/** The field errors a request body gets, as the SDK and the sandbox report them. */
function errorsOf(schema: typeof disbursementRequestSchema, body: unknown) {
  const result = schema.safeParse(body);
  return result.success ? {} : fieldErrorsFrom(result.error, body);
}

describe('a payout name refuses control characters, a tab included', () => {
  const payout = { msisdn: '255754123456', amount: 1000 };

  it('NUL: "The name may not contain control characters (found U+0000 at position 2)."', () => {
    expect(errorsOf(disbursementRequestSchema, { ...payout, name: 'a\u0000b' })).toEqual({
      name: ['The name may not contain control characters (found U+0000 at position 2).'],
    });
  });

  it.each(everyControlCharacter.map((character) => [hex(character), character]))(
    '%s is refused',
    (code, character) => {
      expect(
        errorsOf(disbursementRequestSchema, { ...payout, name: `Asha${character}Juma` }),
      ).toEqual({
        name: [`The name may not contain control characters (found ${code} at position 5).`],
      });
    },
  );

  it('ordinary names are paid as written, and a line feed at the end is refused, not trimmed away', () => {
    for (const name of ordinaryNames) {
      expect(disbursementRequestSchema.parse({ ...payout, name }).name).toBe(name);
    }
    expect(errorsOf(disbursementRequestSchema, { ...payout, name: 'Zawadi\n' })).toEqual({
      name: ['The name may not contain control characters (found U+000A at position 7).'],
    });
  });

  it('the account name at registration is the same rule', () => {
    const account = {
      name: 'Duka\u0000',
      email: 'duka@duka.co.tz',
      phone: '255754123456',
      password: 'duka-secret-1',
    };
    const result = registerRequestSchema.safeParse(account);
    expect(result.success).toBe(false);
    expect(result.error && fieldErrorsFrom(result.error, account)).toEqual({
      name: ['The name may not contain control characters (found U+0000 at position 5).'],
    });
    expect(registerRequestSchema.parse({ ...account, name: 'Zawadi Mwakyusa' }).name).toBe(
      'Zawadi Mwakyusa',
    );
  });
});

describe("a bulk row's reference and a payout row's name refuse control characters, a tab included", () => {
  it.each([
    ['NUL', 'staff\u00001', 'U+0000 at position 6'],
    ['a tab', 'staff\t1', 'U+0009 at position 6'],
    ['DEL', 'staff\u007f', 'U+007F at position 6'],
    ['C1 NEL', 'staff\u0085', 'U+0085 at position 6'],
  ])('%s in a reference', (_, reference, found) => {
    const message = `The reference may not contain control characters (found ${found}).`;
    const row = { msisdn: '255754123456', amount: 1000, reference };
    expect(airtimeBulkRowSchema.safeParse(row).error?.issues.map((i) => i.message)).toEqual([
      message,
    ]);
    const payoutRow = { ...row, name: 'José' };
    expect(payoutBulkRowSchema.safeParse(payoutRow).error?.issues.map((i) => i.message)).toEqual([
      message,
    ]);
    expect(payoutBulkRowSchema.parse({ ...payoutRow, reference: 'staff-1' }).name).toBe('José');
  });

  it("a payout row's name is the payout's rule", () => {
    const row = { msisdn: '255754123456', amount: 1000, name: 'Zawadi\tMwakyusa' };
    expect(payoutBulkRowSchema.safeParse(row).error?.issues.map((i) => i.message)).toEqual([
      'The name may not contain control characters (found U+0009 at position 7).',
    ]);
  });
});
