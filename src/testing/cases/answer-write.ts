import { isInvalidTransitionError } from '../../errors/invalid-transition-error.js';
import { isReferenceConflictError } from '../../errors/reference-conflict-error.js';
import { isStoreInputError } from '../../errors/store-input-error.js';
import { isTransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import { isLeaseLostError } from '../../references/schedule/lease-lost-error.js';
import type { TransactionIntent } from '../../references/types.js';
import { equal, isError, matches, rejection } from '../assertions.js';
import { rule } from '../case.js';

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
 * `attachAndTransition`: a money call's answer recorded in one write, the same as
 * `attachReferences` then `transition` wherever their outcomes can be compared.
 */
export const answerWriteCases = rule(
  'attachAndTransition: the answer of a money call in one write',
  (it) => {
    it('leaves the record exactly as attachReferences then transition would', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await store.records.create(intent('one-write'));
      await store.records.create(intent('two-calls'));
      t.clock.advance(1_000);
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
      equal(merged.changed, true);
      equal(merged.record, { ...sequential, merchantReference: 'one-write', ...refs });
      equal(merged.record.status, 'pending');
      equal(merged.record.lastPayload, answer);
      equal(merged.record.updatedAt, t.clock.at(1_000));
      equal(await store.records.get('one-write'), merged.record);
      equal((await store.records.find({ value: 'ENG-77881' }))?.merchantReference, 'one-write');
    });

    it('a reference another record owns: ReferenceConflictError, and nothing is written', async (t) => {
      const store = await t.open();
      await store.records.create(intent('first'));
      await store.attachReferences('first', { controlNumber: '991100223344' });
      const before = await store.records.create(intent('second'));
      const error = await rejection(store.attachAndTransition('second', refs, 'pending'));
      isError(error, isReferenceConflictError, 'ReferenceConflictError');
      equal(await store.records.get('second'), before);
      equal(await store.records.find({ value: 'ENG-77881' }), undefined);
    });

    it('bad references or a bad move: StoreInputError, and nothing is written', async (t) => {
      const store = await t.open();
      const before = await store.records.create(intent('order-1'));
      const attempts = [
        () => store.attachAndTransition('order-1', { controlNumber: '' }, 'pending'),
        () => store.attachAndTransition('order-1', refs, 'settled' as never),
        () => store.attachAndTransition('order-1', refs, 'pending', { payload: { n: 1n } }),
        () => store.attachAndTransition(' order-1', refs, 'pending'),
      ];
      for (const attempt of attempts) {
        isError(await rejection(attempt()), isStoreInputError, 'StoreInputError');
      }
      equal(await store.records.get('order-1'), before);
      equal(await store.records.find({ value: '991100223344' }), undefined);
    });

    it('an unknown merchant reference: TransactionNotFoundError', async (t) => {
      const store = await t.open();
      const error = await rejection(store.attachAndTransition('missing', refs, 'pending'));
      isError(error, isTransactionNotFoundError, 'TransactionNotFoundError');
      equal(await store.records.find({ value: '991100223344' }), undefined);
    });

    it('a move the table refuses (settled meanwhile): InvalidTransitionError, references kept', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.transition('order-1', 'success', { reason: 'callback verified by pull' });
      const error = await rejection(store.attachAndTransition('order-1', refs, 'pending'));
      isError(error, isInvalidTransitionError, 'InvalidTransitionError');
      const record = await store.records.get('order-1');
      matches(record, { status: 'success', ...refs });
      equal(record?.lastPayload, null);
    });

    it('the move to the current status changes nothing but still attaches', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.transition('order-1', 'pending');
      const { record, changed } = await store.attachAndTransition('order-1', refs, 'pending');
      equal(changed, false);
      matches(record, { status: 'pending', ...refs });
      equal(await store.records.get('order-1'), record);
    });

    it('a lease no longer held: LeaseLostError, and nothing is written', async (t) => {
      const store = await t.open();
      const before = await store.records.create(intent('order-1'));
      const error = await rejection(
        store.attachAndTransition('order-1', refs, 'pending', { leaseToken: 'not-the-holder' }),
      );
      isError(error, isLeaseLostError, 'LeaseLostError');
      equal(await store.records.get('order-1'), before);
    });
  },
);
