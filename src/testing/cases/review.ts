import { isInvalidTransitionError } from '../../errors/invalid-transition-error.js';
import { isStoreInputError, type StoreInputError } from '../../errors/store-input-error.js';
import { equal, isError, matches, messageMatches, rejection } from '../assertions.js';
import { rule } from '../case.js';
import { intent, paid, underpaid } from '../fixtures.js';

const inputError = (error: unknown) => isError(error, isStoreInputError, 'StoreInputError');
const invalid = (error: unknown) =>
  isError(error, isInvalidTransitionError, 'InvalidTransitionError');

export const reviewCases = rule(
  'needs_review: a person decides what automation could not',
  (it) => {
    it('a move to needs_review must carry a verdict, which is stored with its evidence', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.transition('order-1', 'pending');
      const refused = await rejection(store.transition('order-1', 'needs_review'));
      inputError(refused);
      messageMatches(
        String((refused as StoreInputError).errors['review']?.[0]),
        /required when moving to needs_review/,
      );
      equal((await store.records.get('order-1'))?.status, 'pending');

      const { record, changed } = await store.transition('order-1', 'needs_review', {
        review: underpaid,
      });
      equal(changed, true);
      matches(record, {
        status: 'needs_review',
        review: underpaid,
        statusReason: underpaid.message,
      });
      equal(await store.records.get('order-1'), record);
    });

    it('refuses a verdict with an unknown reason, and a verdict on any other move', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      inputError(
        await rejection(
          store.transition('order-1', 'needs_review', {
            review: { reason: 'looks_odd' as never, message: 'odd' },
          }),
        ),
      );
      inputError(await rejection(store.transition('order-1', 'pending', { review: underpaid })));
      equal((await store.records.get('order-1'))?.status, 'initiating');
    });

    it('nothing automatic leaves needs_review; resolve() records who, why and when', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      await store.transition('order-1', 'needs_review', { review: underpaid });
      for (const to of ['pending', 'success', 'failed'] as const) {
        const error = await rejection(store.transition('order-1', to));
        invalid(error);
        messageMatches(error, /only a resolve \(resolveReview/);
      }
      t.clock.advance(60_000);
      const resolved = await store.resolve('order-1', 'success', {
        note: 'Customer paid the balance at the counter',
        by: 'neema@duka.co.tz',
      });
      matches(resolved, {
        status: 'success',
        review: underpaid,
        resolution: {
          status: 'success',
          note: 'Customer paid the balance at the counter',
          by: 'neema@duka.co.tz',
          at: t.clock.at(60_000),
        },
        effect: { status: 'due', dueAt: t.clock.at(60_000) },
      });
      equal(await store.records.get('order-1'), resolved);
    });

    it('resolve() refuses anything but a needs_review record, and a missing note', async (t) => {
      const store = await t.open();
      await paid(store, 'paid-1');
      const final = await rejection(store.resolve('paid-1', 'failed', { note: 'oops' }));
      invalid(final);
      messageMatches(
        final,
        'only a needs_review transaction can be resolved, and this one is success',
      );
      equal((await store.records.get('paid-1'))?.status, 'success');
      await store.records.create(intent('open-1'));
      const open = await rejection(store.resolve('open-1', 'success', { note: 'paid in cash' }));
      messageMatches(open, 'this one is initiating');
      equal((await store.records.get('open-1'))?.status, 'initiating');

      await store.records.create(intent('order-2'));
      await store.transition('order-2', 'needs_review', { review: underpaid });
      inputError(await rejection(store.resolve('order-2', 'success', { note: '  ' })));
      inputError(await rejection(store.resolve('order-2', 'pending' as never, { note: 'x' })));
      equal((await store.records.get('order-2'))?.status, 'needs_review');
    });

    it('reports.review pages through needs_review records by merchant reference', async (t) => {
      const store = await t.open();
      for (const reference of ['c', 'a', 'b', 'd']) {
        await store.records.create(intent(reference));
        if (reference !== 'd')
          await store.transition(reference, 'needs_review', { review: underpaid });
      }
      const first = await store.reports.review({ limit: 2 });
      equal(
        first.map((record) => record.merchantReference),
        ['a', 'b'],
      );
      const rest = await store.reports.review({ limit: 2, after: 'b' });
      equal(
        rest.map((record) => record.merchantReference),
        ['c'],
      );
    });
  },
);
