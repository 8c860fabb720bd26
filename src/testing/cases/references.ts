import { isReferenceConflictError } from '../../errors/reference-conflict-error.js';
import { isStoreInputError, type StoreInputError } from '../../errors/store-input-error.js';
import { equal, isError, matches, messageMatches, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { intent } from '../fixtures.js';

const conflict = (error: unknown) =>
  isError(error, isReferenceConflictError, 'ReferenceConflictError');

export const referenceCases = [
  ...rule('a record can be found by any of its references', (it) => {
    const refs = {
      controlNumber: '991100223344',
      paymentReference: 'ENG-77881',
      externalReference: 'ext-4f2a',
      txnid: 'TXN-0001',
      refid: 'REF-0001',
    } as const;

    it('finds by the merchant reference and by every platform reference', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.records.create(intent('order-2'));
      matches(await store.attachReferences('order-1', refs), refs);
      for (const value of ['order-1', ...Object.values(refs)]) {
        equal(
          (await store.records.find({ value: value }))?.merchantReference,
          'order-1',
          `records.find({ value: '${value}' })`,
        );
      }
      for (const [field, value] of Object.entries(refs)) {
        const found = await store.records.find({ field: field as keyof typeof refs, value });
        equal(found?.merchantReference, 'order-1', `find({ field: '${field}' })`);
      }
      const byMerchant = await store.records.find({ field: 'merchantReference', value: 'order-2' });
      equal(byMerchant?.merchantReference, 'order-2');
    });

    it('answers undefined for an unknown reference, a wrong kind, or a value no reference can be', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.attachReferences('order-1', { controlNumber: 'CN-1' });
      equal(await store.records.find({ value: 'CN-2' }), undefined);
      equal(await store.records.find({ field: 'txnid', value: 'CN-1' }), undefined);
      equal(await store.records.find({ value: '' }), undefined);
      equal(await store.records.get('CN-1'), undefined);
    });

    it('getMany reads many merchant references at once, in the order asked', async (t) => {
      const store = await t.open();
      for (const reference of ['row:1', 'row:2', 'row:3']) {
        await store.records.create(intent(reference));
      }
      await store.attachReferences('row:2', { controlNumber: 'CN-2' });
      const found = await store.records.getMany(['row:3', 'row:9', 'CN-2', '', 'row:1', 'row:3']);
      equal(
        found.map((record) => record?.merchantReference),
        ['row:3', undefined, undefined, undefined, 'row:1', 'row:3'],
      );
      equal(found[0], await store.records.get('row:3'));
      equal(await store.records.getMany([]), []);
      const asked = Array.from({ length: 1000 }, (_, index) => `row:${index + 1}`);
      equal((await store.records.getMany(asked)).filter(Boolean).length, 3);
    });

    it('getMany refuses more than 1,000 references or a list that is not one, naming the field', async (t) => {
      const store = await t.open();
      const tooMany = await rejection(
        store.records.getMany(Array.from({ length: 1001 }, (_, index) => `row:${index}`)),
      );
      isError(tooMany, isStoreInputError, 'StoreInputError');
      messageMatches(
        String((tooMany as StoreInputError).errors['merchantReferences']?.[0]),
        /at most 1000/,
      );
      const notList = await rejection(store.records.getMany('row:1' as unknown as string[]));
      truthy(
        Object.hasOwn((notList as StoreInputError).errors ?? {}, 'merchantReferences'),
        'a string for the list is refused naming merchantReferences',
      );
      const notText = await rejection(store.records.getMany([7 as unknown as string]));
      truthy(
        Object.hasOwn((notText as StoreInputError).errors ?? {}, 'merchantReferences.0'),
        'a number in the list is refused naming merchantReferences.0',
      );
    });
  }),

  ...rule('references never change once known', (it) => {
    it('attaching the same value again is a no-op', { clock: true }, async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      const first = await store.attachReferences('order-1', { controlNumber: 'CN-1' });
      t.clock.advance(1000);
      const again = await store.attachReferences('order-1', { controlNumber: 'CN-1' });
      equal(again, first);
      equal(again.updatedAt, t.clock.at(0));
    });

    it('references arrive in several steps', { clock: true }, async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.attachReferences('order-1', { externalReference: 'ext-1' });
      t.clock.advance(1000);
      const record = await store.attachReferences('order-1', {
        externalReference: 'ext-1',
        controlNumber: 'CN-1',
      });
      matches(record, { externalReference: 'ext-1', controlNumber: 'CN-1' });
      equal(record.updatedAt, t.clock.at(1000));
    });

    it('a different value for a known field is a conflict, and nothing is attached', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      const before = await store.attachReferences('order-1', { controlNumber: 'CN-1' });
      const error = await rejection(
        store.attachReferences('order-1', { paymentReference: 'ENG-1', controlNumber: 'CN-2' }),
      );
      conflict(error);
      matches(error, {
        merchantReference: 'order-1',
        field: 'controlNumber',
        existing: 'CN-1',
        attempted: 'CN-2',
      });
      equal(await store.records.get('order-1'), before);
      equal(await store.records.find({ value: 'ENG-1' }), undefined);
    });

    it('a value another record owns is a conflict naming the owner; nothing half-written', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.records.create(intent('order-2'));
      // The owned value comes last in field order, so a store that wrote as it checked would
      // already have written controlNumber CN-2 when it found the conflict.
      await store.attachReferences('order-1', { refid: 'R-1' });
      const before = await store.records.get('order-2');
      const error = await rejection(
        store.attachReferences('order-2', { controlNumber: 'CN-2', refid: 'R-1' }),
      );
      conflict(error);
      messageMatches(error, 'order-1');
      equal(await store.records.get('order-2'), before);
      equal(await store.records.find({ value: 'CN-2' }), undefined);
      equal((await store.records.find({ value: 'R-1' }))?.merchantReference, 'order-1');
    });

    it('a value owned under another kind, or as a merchant reference, is a conflict too', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.records.create(intent('order-2'));
      await store.attachReferences('order-1', { txnid: 'SHARED-1' });
      for (const refs of [{ controlNumber: 'SHARED-1' }, { paymentReference: 'order-1' }]) {
        conflict(await rejection(store.attachReferences('order-2', refs)));
      }
      equal((await store.records.get('order-2'))?.controlNumber, null);
      equal((await store.records.get('order-2'))?.paymentReference, null);
    });

    it('one record may hold the same value under two kinds', async (t) => {
      const store = await t.open();
      await store.records.create(
        intent('payout-1', { product: 'disbursement', flow: 'disbursement' }),
      );
      const record = await store.attachReferences('payout-1', { txnid: 'P-1', refid: 'P-1' });
      matches(record, { txnid: 'P-1', refid: 'P-1' });
      equal((await store.records.find({ value: 'P-1' }))?.merchantReference, 'payout-1');
    });
  }),
];
