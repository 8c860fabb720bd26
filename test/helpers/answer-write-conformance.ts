import { afterEach, describe, expect, it } from 'vitest';
import { isInvalidTransitionError } from '../../src/errors/invalid-transition-error.js';
import { isReferenceConflictError } from '../../src/errors/reference-conflict-error.js';
import { isStoreInputError } from '../../src/errors/store-input-error.js';
import { isTransactionNotFoundError } from '../../src/errors/transaction-not-found-error.js';
import type { ReferenceStore, TransactionIntent } from '../../src/references/index.js';
import { isLeaseLostError } from '../../src/references/schedule/lease-lost-error.js';
import { failure } from './failure.js';
import type { ReferenceStoreHarness } from './reference-store-conformance.js';

const start = Date.parse('2025-03-01T08:00:00.000Z');

function intent(merchantReference: string): TransactionIntent {
  return { merchantReference, product: 'collection', flow: 'mno', amount: 5000 };
}

const answer = {
  message: 'Payment request sent',
  status: 'pending',
  controlNumber: '991100223344',
};
const refs = { controlNumber: '991100223344', paymentReference: 'ENG-77881' };

/**
 * `attachAndTransition`: a money call's answer recorded in one write (docs/reference-store.md),
 * the same as `attachReferences` then `transition` wherever their outcomes can be compared.
 * Run by describeReferenceStore for every store.
 */
export function describeAttachAndTransition(harness: ReferenceStoreHarness): void {
  let now = start;
  const clock = { now: () => new Date(now), advance: (ms: number) => (now += ms) };
  const opened: ReferenceStore[] = [];

  async function open(): Promise<ReferenceStore> {
    now = start;
    const store = await harness.open({ now: clock.now });
    opened.push(store);
    return store;
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  describe('attachAndTransition: the answer of a money call in one write', () => {
    it('leaves the record exactly as attachReferences then transition would', async () => {
      const store = await open();
      expect(store.attachAndTransition).toBeTypeOf('function');
      await store.createIntent(intent('one-write'));
      await store.createIntent(intent('two-calls'));
      clock.advance(1_000);
      const merged = await store.attachAndTransition('one-write', refs, 'pending', {
        payload: answer,
        reason: 'accepted',
      });
      await store.attachReferences('two-calls', {
        controlNumber: '991100223399',
        paymentReference: 'ENG-77899',
      });
      const { record: sequential } = await store.transition('two-calls', 'pending', {
        payload: answer,
        reason: 'accepted',
      });
      expect(merged.changed).toBe(true);
      expect(merged.record).toEqual({
        ...sequential,
        merchantReference: 'one-write',
        ...refs,
      });
      expect(merged.record.status).toBe('pending');
      expect(merged.record.lastPayload).toEqual(answer);
      expect(merged.record.updatedAt).toEqual(new Date(start + 1_000));
      expect(await store.get('one-write')).toEqual(merged.record);
      expect((await store.findByReference('ENG-77881'))?.merchantReference).toBe('one-write');
    });

    it('a reference another record owns: ReferenceConflictError, and nothing is written', async () => {
      const store = await open();
      await store.createIntent(intent('first'));
      await store.attachReferences('first', { controlNumber: '991100223344' });
      const before = await store.createIntent(intent('second'));
      const error = await failure(store.attachAndTransition('second', refs, 'pending'));
      expect(isReferenceConflictError(error)).toBe(true);
      expect(await store.get('second')).toEqual(before);
      expect(await store.findByReference('ENG-77881')).toBeUndefined();
    });

    it('bad references or a bad move: StoreInputError, and nothing is written', async () => {
      const store = await open();
      const before = await store.createIntent(intent('order-1'));
      const attempts = [
        () => store.attachAndTransition('order-1', { controlNumber: '' }, 'pending'),
        () => store.attachAndTransition('order-1', refs, 'settled' as never),
        () => store.attachAndTransition('order-1', refs, 'pending', { payload: { n: 1n } }),
        () => store.attachAndTransition(' order-1', refs, 'pending'),
      ];
      for (const attempt of attempts) {
        expect(isStoreInputError(await failure(attempt()))).toBe(true);
      }
      expect(await store.get('order-1')).toEqual(before);
      expect(await store.findByReference('991100223344')).toBeUndefined();
    });

    it('an unknown merchant reference: TransactionNotFoundError', async () => {
      const store = await open();
      const error = await failure(store.attachAndTransition('missing', refs, 'pending'));
      expect(isTransactionNotFoundError(error)).toBe(true);
      expect(await store.findByReference('991100223344')).toBeUndefined();
    });

    it('a move the table refuses (settled meanwhile): InvalidTransitionError, references kept', async () => {
      const store = await open();
      await store.createIntent(intent('order-1'));
      await store.transition('order-1', 'success', { reason: 'callback verified by pull' });
      const error = await failure(store.attachAndTransition('order-1', refs, 'pending'));
      expect(isInvalidTransitionError(error)).toBe(true);
      const record = await store.get('order-1');
      expect(record).toMatchObject({ status: 'success', ...refs });
      expect(record?.lastPayload).toBeNull();
    });

    it('the move to the current status changes nothing but still attaches', async () => {
      const store = await open();
      await store.createIntent(intent('order-1'));
      await store.transition('order-1', 'pending');
      const { record, changed } = await store.attachAndTransition('order-1', refs, 'pending');
      expect(changed).toBe(false);
      expect(record).toMatchObject({ status: 'pending', ...refs });
      expect(await store.get('order-1')).toEqual(record);
    });

    it('a lease no longer held: LeaseLostError, and nothing is written', async () => {
      const store = await open();
      const before = await store.createIntent(intent('order-1'));
      const error = await failure(
        store.attachAndTransition('order-1', refs, 'pending', { leaseToken: 'not-the-holder' }),
      );
      expect(isLeaseLostError(error)).toBe(true);
      expect(await store.get('order-1')).toEqual(before);
    });
  });
}
