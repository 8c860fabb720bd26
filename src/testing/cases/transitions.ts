import { isInvalidTransitionError } from '../../errors/invalid-transition-error.js';
import { allowedTransitions, transactionStatuses } from '../../references/transitions.js';
import { equal, isError, matches, messageMatches, rejection } from '../assertions.js';
import { rule } from '../case.js';
import { details, intent, recordIn } from '../fixtures.js';

const invalid = (error: unknown) =>
  isError(error, isInvalidTransitionError, 'InvalidTransitionError');

export const transitionCases = [
  ...rule('status moves only forward along the allowed transitions', (it) => {
    for (const from of transactionStatuses) {
      for (const to of transactionStatuses) {
        it(`${from} → ${to}`, { clock: true }, async (t) => {
          const store = await t.open();
          const before = await recordIn(store, 'order-1', from);
          t.clock.advance(1000);
          if (from === to) {
            const result = await store.transition('order-1', to, details(to, 'again'));
            equal(result.changed, false, 'a move to the current status changes nothing');
            equal(result.from, from, 'from: the status the record was in');
            equal(result.record, before);
          } else if (allowedTransitions[from].includes(to)) {
            const result = await store.transition('order-1', to, details(to, 'moved'));
            equal(result.changed, true, 'an allowed move answers changed: true');
            equal(result.from, from, 'from: the status the record left');
            matches(result.record, {
              status: to,
              statusReason: 'moved',
              updatedAt: t.clock.at(1000),
            });
            equal(await store.records.get('order-1'), result.record);
          } else {
            const error = await rejection(store.transition('order-1', to, details(to, 'late')));
            invalid(error);
            matches(error, { merchantReference: 'order-1', from, to });
            equal(await store.records.get('order-1'), before);
          }
        });
      }
    }

    it('success and failed are final: no status reaches anything from them', async (t) => {
      const store = await t.open();
      await recordIn(store, 'paid', 'success');
      for (const to of ['initiating', 'pending', 'unknown', 'failed'] as const) {
        invalid(await rejection(store.transition('paid', to)));
      }
      equal((await store.records.get('paid'))?.status, 'success');
    });
  }),

  ...rule('a transition records its payload, reason and attempt time', (it) => {
    it('keeps the payload as JSON and the attempt time when leaving initiating', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      const payload = {
        message: 'Imepokelewa ✓',
        data: { amount: 5000.5, items: [1, 'two', null, { deep: true }] },
        at: new Date('2025-03-01T09:00:00.000Z'),
      };
      const sentAt = t.clock.at(50);
      t.clock.advance(200);
      const { record } = await store.transition('order-1', 'pending', {
        payload,
        reason: 'accepted',
        at: sentAt,
      });
      equal(record.lastPayload, { ...payload, at: '2025-03-01T09:00:00.000Z' });
      equal(record.attemptedAt, sentAt);
      equal(record.statusReason, 'accepted');

      t.clock.advance(1000);
      const settled = await store.transition('order-1', 'success');
      equal(
        settled.record.lastPayload,
        record.lastPayload,
        'a move without a payload keeps the last',
      );
      equal(settled.record.attemptedAt, sentAt);
      equal(settled.record.statusReason, null);
      equal(record.finalAt, null);
      equal(settled.record.finalAt, t.clock.at(1200));
      equal(await store.records.get('order-1'), settled.record);
    });

    it('keeps the provider from the MSISDN; a named provider fills only a missing one', async (t) => {
      const store = await t.open();
      await store.records.create(intent('order-1'));
      const { msisdn: _none, ...bank } = intent('bank-1', { flow: 'bank' });
      await store.records.create(bank);
      equal((await store.records.get('bank-1'))?.provider, null);
      const paid = await store.transition('order-1', 'success', { provider: 'airtel' });
      equal(paid.record.provider, 'vodacom');
      const banked = await store.transition('bank-1', 'pending', { provider: 'airtel' });
      equal(banked.record.provider, 'airtel');
      const error = await rejection(store.transition('bank-1', 'failed', { provider: ' ' }));
      messageMatches(error, /provider.*must not be empty/);
      equal((await store.records.get('bank-1'))?.status, 'pending');
    });

    it('stores a payload that is itself a string, number or null', async (t) => {
      const store = await t.open();
      for (const [index, payload] of ['plain text', 42, null, [1, 2]].entries()) {
        await store.records.create(intent(`order-${index}`));
        const { record } = await store.transition(`order-${index}`, 'unknown', { payload });
        equal(record.lastPayload, payload);
        equal((await store.records.get(`order-${index}`))?.lastPayload, payload);
      }
    });
  }),

  ...rule('records handed out are copies', (it) => {
    it('changing a returned record does not change the store', { clock: true }, async (t) => {
      const store = await t.open();
      const record = await store.records.create(intent('order-1', { metadata: { a: '1' } }));
      Object.assign(record.metadata, { a: 'changed' });
      record.status = 'success';
      record.createdAt.setTime(0);
      matches(await store.records.get('order-1'), {
        metadata: { a: '1' },
        status: 'initiating',
        createdAt: t.clock.at(0),
      });
    });
  }),
];
