import { describe, expect, it } from 'vitest';
import { isStoreInputError, type StoreInputError } from '../../../src/errors/store-input-error.js';
import { parseMove } from '../../../src/references/input-rules.js';
import { MemoryReferenceStore } from '../../../src/references/memory-store.js';
import type { RecordChange, RecordMove, ReferenceStore } from '../../../src/references/types.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { failure } from '../../helpers/failure.js';

// Every store checks store.move()'s arguments with one function (parseMove): the same input is
// refused with the same error, field and message, whichever store is behind.
const refs = { controlNumber: '991100223344', paymentReference: 'ENG-1' };
const pending: RecordChange = {
  status: 'pending',
  statusReason: null,
  attempted: true,
  final: false,
  effect: 'kept',
};
const bad: Array<[string, string, RecordMove]> = [
  ['merchant reference', ' order-1', { expected: 'initiating', references: refs }],
  ['references', 'order-1', { expected: 'initiating', references: { controlNumber: '' } }],
  ['expected status', 'order-1', { expected: 'settled' as never, change: pending }],
  [
    'status',
    'order-1',
    { expected: 'initiating', change: { ...pending, status: 'paid' as never } },
  ],
  [
    'effect',
    'order-1',
    { expected: 'initiating', change: { ...pending, effect: 'soon' as never } },
  ],
  [
    'payload',
    'order-1',
    { expected: 'initiating', change: { ...pending, lastPayload: { n: 1n } } },
  ],
  ['unknown field', 'order-1', { expected: 'initiating', to: 'pending' } as never],
];

/** The StoreInputError `run` throws (the test fails on any other outcome). */
async function refusal(run: () => unknown): Promise<StoreInputError> {
  const error = await failure(Promise.resolve().then(run));
  if (!isStoreInputError(error)) throw error;
  return error;
}

describe('store.move: one set of checks for every store', () => {
  it('hands back the payload as JSON, serialised once', () => {
    const parsed = parseMove({
      expected: 'initiating',
      references: refs,
      change: { ...pending, lastPayload: { at: new Date('2026-11-23T10:00:00Z') } },
      leaseToken: 'lease-1',
    });
    expect(parsed.references).toEqual(refs);
    expect(parsed.change?.lastPayload).toEqual({ at: '2026-11-23T10:00:00.000Z' });
    expect(parsed.change?.payloadText).toBe('{"at":"2026-11-23T10:00:00.000Z"}');
    expect(parsed.leaseToken).toBe('lease-1');
  });

  const stores: Array<[string, () => Promise<ReferenceStore>]> = [
    ['memory', async () => new MemoryReferenceStore()],
    ['SQLite', () => SqliteReferenceStore.open(':memory:')],
  ];
  for (const [which, reference, move] of bad) {
    it(`bad ${which}: every store refuses with the field and rule, nothing written`, async () => {
      for (const [, open] of stores) {
        const store = await open();
        const before = await store.records.create({
          merchantReference: 'order-1',
          product: 'collection',
          flow: 'mno',
          amount: 1000,
        });
        const error = await refusal(() => store.records.move(reference, move));
        expect(error.operation).toBe('records.move');
        expect(Object.keys(error.errors).length).toBeGreaterThan(0);
        expect(error.message).toMatch(/move/);
        expect(await store.records.get('order-1')).toEqual(before);
        await store.close();
      }
    });
  }

  it('the two stores refuse the same input with the same message', async () => {
    const memory = new MemoryReferenceStore();
    const sqlite = await SqliteReferenceStore.open(':memory:');
    for (const [, reference, move] of bad) {
      const [a, b] = await Promise.all(
        [memory, sqlite].map((store) => refusal(() => store.records.move(reference, move))),
      );
      expect(b?.errors).toEqual(a?.errors);
      expect(b?.message).toBe(a?.message);
    }
    await sqlite.close();
  });
});
