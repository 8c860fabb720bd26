import { describe, expect, it } from 'vitest';
import { isStoreInputError, type StoreInputError } from '../../../src/errors/store-input-error.js';
import { parseAnswerWrite } from '../../../src/references/input-rules.js';
import { MemoryReferenceStore } from '../../../src/references/memory-store.js';
import type { ReferenceStore, TransitionDetails } from '../../../src/references/types.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { failure } from '../../helpers/failure.js';

// Both stores check attachAndTransition's arguments with one function (parseAnswerWrite): the
// same input is refused with the same error, field and message, whichever store is behind.
const refs = { controlNumber: '991100223344', paymentReference: 'ENG-1' };
const bad: Array<[string, () => Parameters<typeof parseAnswerWrite>]> = [
  ['merchant reference', () => [' order-1', refs, 'pending']],
  ['references', () => ['order-1', { controlNumber: '' }, 'pending']],
  ['status', () => ['order-1', refs, 'settled' as never]],
  ['payload', () => ['order-1', refs, 'pending', { payload: { n: 1n } } as TransitionDetails]],
  // Several wrongs at once: the merchant reference is checked first, in every store.
  ['all at once', () => [' order-1', { controlNumber: '' }, 'settled' as never]],
];

/** The StoreInputError `run` throws (the test fails on any other outcome). */
async function refusal(run: () => unknown): Promise<StoreInputError> {
  const error = await failure(Promise.resolve().then(run));
  if (!isStoreInputError(error)) throw error;
  return error;
}

describe('parseAnswerWrite: one set of checks for every store', () => {
  it('keeps the lease token and hands back parsed values', async () => {
    const parsed = parseAnswerWrite('order-1', refs, 'pending', {
      payload: { at: new Date('2026-11-23T10:00:00Z') },
      leaseToken: 'lease-1',
    });
    expect(parsed.merchantReference).toBe('order-1');
    expect(parsed.refs).toEqual(refs);
    expect(parsed.transition.to).toBe('pending');
    // A payload is normalised to what JSON holds (the Date becomes its text).
    expect(parsed.transition.payload).toEqual({ at: '2026-11-23T10:00:00.000Z' });
    expect(parsed.leaseToken).toBe('lease-1');
  });

  const stores: Array<[string, () => Promise<ReferenceStore>]> = [
    ['memory', async () => new MemoryReferenceStore()],
    ['SQLite', () => SqliteReferenceStore.open(':memory:')],
  ];
  for (const [which, args] of bad) {
    it(`bad ${which}: every store refuses with parseAnswerWrite's error, nothing written`, async () => {
      const expected = await refusal(() => parseAnswerWrite(...args()));
      expect(Object.keys(expected.errors).length).toBeGreaterThan(0);
      for (const [, open] of stores) {
        const store = await open();
        const before = await store.createIntent({
          merchantReference: 'order-1',
          product: 'collection',
          flow: 'mno',
          amount: 1000,
        });
        const error = await failure(store.attachAndTransition(...args()));
        expect(isStoreInputError(error)).toBe(true);
        expect((error as StoreInputError).errors).toEqual(expected.errors);
        expect((error as StoreInputError).message).toBe(expected.message);
        expect(await store.get('order-1')).toEqual(before);
        await store.close?.();
      }
    });
  }
});
