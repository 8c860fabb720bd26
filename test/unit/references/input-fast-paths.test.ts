import { describe, expect, it } from 'vitest';
import { isStoreInputError, type StoreInputError } from '../../../src/errors/store-input-error.js';
import {
  isLookupable,
  parseIntent,
  parseMerchantReference,
  parseReferences,
  parseTransition,
} from '../../../src/references/input-rules.js';
import { failure } from '../../helpers/failure.js';

// The store's checks answer the happy path without zod (input-rules.ts isPlainReference,
// plainReferences, plainTransition) and hand everything else to the schema. These cases sit on
// each rule's edge: the two paths must agree on what passes, and a refusal must still be the
// schema's error.

/** The StoreInputError `run` throws (the test fails on any other outcome). */
async function refusal(run: () => unknown): Promise<StoreInputError> {
  const error = await failure(Promise.resolve().then(run));
  if (!isStoreInputError(error)) throw error;
  return error;
}

describe('references: the plain check and the schema agree', () => {
  const accepted = ['a', 'x'.repeat(128), 'ORD-1', 'ä-ñ-1', 'in side'];
  const refused: Array<[unknown, string]> = [
    ['', 'must not be empty'],
    ['x'.repeat(129), 'at most 128 characters'],
    [' ORD-1', 'must not start or end with spaces'],
    ['ORD-1\n', 'must not start or end with spaces'],
    ['ORD\u00071', 'must not contain control characters'],
    [42, 'must be a string'],
  ];
  it('accepts a valid reference as it is', async () => {
    for (const value of accepted) {
      expect(parseMerchantReference('get', value)).toBe(value);
      expect(isLookupable(value)).toBe(true);
      expect(parseReferences({ controlNumber: value })).toEqual({ controlNumber: value });
    }
  });
  it('refuses an invalid one with the rule it broke, naming the field', async () => {
    for (const [value, rule] of refused) {
      expect(isLookupable(value)).toBe(false);
      const error = await refusal(() => parseMerchantReference('get', value as string));
      expect(error.errors['merchantReference']?.[0]).toContain(rule);
      const refsError = await refusal(() => parseReferences({ txnid: value as string }));
      expect(refsError.errors['txnid']?.[0]).toContain(rule);
    }
  });
  it('drops kinds given as undefined; refuses unknown kinds and non-objects', async () => {
    expect(parseReferences({ controlNumber: '9911', txnid: undefined } as never)).toEqual({
      controlNumber: '9911',
    });
    const unknownKind = await refusal(() => parseReferences({ reference: 'x' } as never));
    expect(unknownKind.errors['refs']?.[0]).toContain('unknown reference kinds (reference)');
    expect(isStoreInputError(await refusal(() => parseReferences(['x'] as never)))).toBe(true);
    // Not an object literal: the schema decides, as it always did (it sees inherited keys).
    const made = Object.assign(Object.create({ inherited: true }), { refid: 'R-1' });
    const inherited = await refusal(() => parseReferences(made));
    expect(inherited.errors['refs']?.[0]).toContain('unknown reference kinds (inherited)');
  });
});

describe('transitions: the plain check and the schema agree', () => {
  it('a move with a short reason and a payload', async () => {
    const parsed = parseTransition('pending', { reason: 'r'.repeat(1000), payload: { a: 1 } });
    expect(parsed).toMatchObject({ to: 'pending', reason: 'r'.repeat(1000), at: undefined });
    expect(parsed.payload).toEqual({ a: 1 });
    expect(parsed.payloadText).toBe('{"a":1}');
  });
  it('refuses what the schema refuses, with its error', async () => {
    const long = await refusal(() => parseTransition('failed', { reason: 'r'.repeat(1001) }));
    expect(long.errors['reason']?.[0]).toContain('at most 1000 characters');
    const unknown = await refusal(() => parseTransition('settled' as never));
    expect(unknown.errors['to']?.[0]).toContain('must be one of');
    const noVerdict = await refusal(() => parseTransition('needs_review'));
    expect(noVerdict.errors['review']?.[0]).toContain('is required when moving to needs_review');
    const badTime = await refusal(() => parseTransition('success', { at: new Date(Number.NaN) }));
    expect(badTime.errors['at']?.[0]).toMatch(/^at must be a/);
  });
  it('a time or a verdict still goes through the schema', async () => {
    const at = new Date('2026-11-23T10:00:00Z');
    expect(parseTransition('success', { at }).at).toEqual(at);
    const review = parseTransition('needs_review', {
      review: { reason: 'amount_mismatch', message: 'paid 900 of 1000' },
    });
    expect(review.review).toEqual({ reason: 'amount_mismatch', message: 'paid 900 of 1000' });
    expect(review.reason).toBe('paid 900 of 1000');
  });
});

describe('intents: the plain check and the schema agree', () => {
  const intent = {
    merchantReference: 'order-1',
    product: 'collection' as const,
    flow: 'mno' as const,
    amount: 15000.5,
    msisdn: '255754123456',
  };
  it('a valid intent comes back with its fields, and nothing else', async () => {
    expect(parseIntent({ ...intent, extra: 1 } as never)).toEqual(intent);
    const { msisdn: _, ...withoutMsisdn } = intent;
    expect(parseIntent(withoutMsisdn)).toEqual(withoutMsisdn);
    const withMetadata = { ...intent, metadata: { order: '77' } };
    expect(parseIntent(withMetadata)).toEqual(withMetadata);
  });
  it('refuses what the schema refuses, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ merchantReference: ' order-1' }, 'merchantReference'],
      [{ flow: 'disbursement' }, 'flow'],
      [{ flow: 'toString' }, 'flow'],
      [{ product: 'airtime' }, 'flow'],
      [{ amount: 0 }, 'amount'],
      [{ amount: 1.005 }, 'amount'],
      [{ amount: 1_000_000_001 }, 'amount'],
      [{ amount: '15000' }, 'amount'],
      [{ msisdn: '0754123456' }, 'msisdn'],
      [{ metadata: { '': 'x' } }, 'metadata'],
    ];
    for (const [change, field] of cases) {
      const error = await refusal(() => parseIntent({ ...intent, ...change } as never));
      expect(Object.keys(error.errors).some((key) => key.startsWith(field))).toBe(true);
    }
  });
});
