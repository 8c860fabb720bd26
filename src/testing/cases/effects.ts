import { isStoreInputError } from '../../errors/store-input-error.js';
import { isTransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { EffectKind } from '../../references/effects.js';
import type { TransactionIntent } from '../../references/types.js';
import { equal, isError, matches, messageMatches, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { callback, intent, paid, underpaid } from '../fixtures.js';

const inputError = (error: unknown) => isError(error, isStoreInputError, 'StoreInputError');
const names = (records: { merchantReference: string }[]) =>
  records.map((record) => record.merchantReference).sort();

export const effectCases = [
  ...rule(
    'effects: the final transition is the claim; the handler runs until it completes',
    (it) => {
      it('a move to success, failed or needs_review makes the effect due in the same write', {
        clock: true,
      }, async (t) => {
        const store = await t.open();
        await store.records.create(intent('order-1'));
        const pending = await store.transition('order-1', 'pending');
        equal(pending.record.effect.status, 'none');
        const { record } = await store.transition('order-1', 'success');
        equal(record.effect, {
          status: 'due',
          attempts: 0,
          dueAt: t.clock.at(0),
          lastError: null,
          completedAt: null,
        });
      });

      it('exactly one of many concurrent final transitions wins', async (t) => {
        const store = await t.open();
        await store.records.create(intent('order-1'));
        await store.transition('order-1', 'pending');
        const results = await Promise.all(
          Array.from({ length: 8 }, () => store.transition('order-1', 'success')),
        );
        equal(results.filter((result) => result.changed).length, 1, 'callers told changed: true');
      });

      it('a claim leases due effects; a second claimer gets nothing while the lease holds', {
        clock: true,
      }, async (t) => {
        const store = await t.open();
        await paid(store, 'a');
        t.clock.advance(1);
        await paid(store, 'b');
        const claims = await store.effects.claim({ leaseMs: 30_000 });
        equal(
          claims.map((claim) => claim.record.merchantReference),
          ['a', 'b'],
        );
        matches(claims[0]?.record.effect, { status: 'running', attempts: 1 });
        equal(await store.effects.claim({ leaseMs: 30_000 }), []);
        equal((await store.effects.list('running')).length, 2);
      });

      it('completing needs the current token; an expired lease is claimed again and fences the old holder', {
        clock: true,
      }, async (t) => {
        const store = await t.open();
        await paid(store, 'order-1');
        const [first] = await store.effects.claim({ leaseMs: 10_000 });
        truthy(first, 'effects.claim claimed nothing due');
        t.clock.advance(10_000);
        // The first worker's lease expired: its completion must not count.
        equal(
          await store.effects.complete('order-1', first.token),
          false,
          'an expired token completed',
        );
        const [second] = await store.effects.claim({ leaseMs: 10_000 });
        truthy(second, 'an expired lease was not claimed again');
        truthy(second.token !== first.token, 'the second claim reused the first token');
        equal(second.record.effect.attempts, 2);
        equal(
          await store.effects.complete('order-1', first.token),
          false,
          'the old holder completed',
        );
        equal(
          await store.effects.fail('order-1', first.token, { error: 'x', retryAt: null }),
          false,
          'the old holder failed the effect',
        );
        equal(await store.effects.complete('order-1', second.token), true);
        matches((await store.records.get('order-1'))?.effect, {
          status: 'done',
          completedAt: t.clock.at(10_000),
        });
        equal(await store.effects.complete('order-1', second.token), false, 'completed twice');
        equal(await store.effects.claim({ leaseMs: 10_000 }), []);
      });

      it('a failed run is due again at retryAt, and dead-lettered when there is no retry', {
        clock: true,
      }, async (t) => {
        const store = await t.open();
        await paid(store, 'order-1');
        const [claim] = await store.effects.claim({ leaseMs: 10_000 });
        truthy(claim, 'effects.claim claimed nothing due');
        equal(
          await store.effects.fail('order-1', claim.token, {
            error: 'orders DB down',
            retryAt: t.clock.at(5000),
          }),
          true,
        );
        matches((await store.records.get('order-1'))?.effect, {
          status: 'due',
          lastError: 'orders DB down',
          dueAt: t.clock.at(5000),
        });
        equal(await store.effects.claim({ leaseMs: 10_000 }), []);
        t.clock.advance(5000);
        const [again] = await store.effects.claim({ leaseMs: 10_000 });
        truthy(again, 'the effect was not due again at retryAt');
        equal(again.record.effect.attempts, 2);
        await store.effects.fail('order-1', again.token, { error: 'still down', retryAt: null });
        const dead = await store.effects.list('dead');
        equal(
          dead.map((record) => record.merchantReference),
          ['order-1'],
        );
        matches(dead[0]?.effect, { status: 'dead', lastError: 'still down' });
        t.clock.advance(86_400_000);
        equal(await store.effects.claim({ leaseMs: 10_000 }), []);
      });

      it('claims one record by merchant reference, leaving the others due', async (t) => {
        const store = await t.open();
        await paid(store, 'a');
        await paid(store, 'b');
        const claims = await store.effects.claim({ leaseMs: 10_000, merchantReference: 'b' });
        equal(
          claims.map((claim) => claim.record.merchantReference),
          ['b'],
        );
        equal(
          (await store.effects.list('due')).map((record) => record.merchantReference),
          ['a'],
        );
      });

      it('refuses bad claim options and changes nothing', async (t) => {
        const store = await t.open();
        await paid(store, 'a');
        for (const options of [
          { leaseMs: 0 },
          { leaseMs: 1.5 },
          { leaseMs: 1000, limit: 0 },
          { leaseMs: 1000, handles: ['paid_out' as never] },
        ]) {
          inputError(await rejection(store.effects.claim(options)));
        }
        equal((await store.records.get('a'))?.effect.status, 'due');
      });

      it('claims only the kinds asked for: money in is paid/failed, money out sent/not_sent; a recharge settles with none', async (t) => {
        const store = await t.open();
        const settle = async (given: TransactionIntent, to: 'success' | 'failed') => {
          await store.records.create(given);
          await store.transition(given.merchantReference, 'pending');
          return (await store.transition(given.merchantReference, to)).record;
        };
        const msisdn = '255754123456';
        await settle(intent('in-paid'), 'success');
        await settle(intent('in-failed'), 'failed');
        const money = { product: 'disbursement', flow: 'disbursement', amount: 5000 } as const;
        await settle({ merchantReference: 'out-payout', msisdn, ...money }, 'success');
        const sale = { product: 'airtime', flow: 'airtime_purchase', amount: 500, msisdn } as const;
        await settle({ merchantReference: 'out-airtime', ...sale }, 'success');
        await settle({ merchantReference: 'out-refused', ...sale }, 'failed');
        const topUp = { ...sale, flow: 'airtime_recharge' } as const;
        const recharged = await settle({ merchantReference: 'top-up', ...topUp }, 'success');
        equal(recharged.effect.status, 'none', 'a settled recharge has no effect');
        await store.records.create({ merchantReference: 'top-up-2', ...topUp });
        await store.transition('top-up-2', 'needs_review', { review: underpaid });

        const due = async (handles: EffectKind[]) =>
          names(await store.effects.list('due', { handles }));
        equal(await due(['paid', 'failed']), ['in-failed', 'in-paid']);
        equal(await due(['sent']), ['out-airtime', 'out-payout']);
        equal(await due(['not_sent']), ['out-refused']);
        equal(await due([]), []);
        const claims = await store.effects.claim({ leaseMs: 10_000, handles: ['sent', 'review'] });
        equal(names(claims.map((claim) => claim.record)), [
          'out-airtime',
          'out-payout',
          'top-up-2',
        ]);
        equal(
          await store.effects.claim({
            leaseMs: 10_000,
            merchantReference: 'in-paid',
            handles: ['sent'],
          }),
          [],
        );
        equal(await due(['paid', 'failed', 'not_sent']), ['in-failed', 'in-paid', 'out-refused']);
        // A person settles the recharge: its review effect is over, and its outcome runs none.
        const resolved = await store.resolve('top-up-2', 'success', { note: 'credited' });
        equal(resolved.effect.status, 'done');
        equal(await store.effects.list('due', { handles: ['sent'] }), []);
      });
    },
  ),

  ...rule('a person retries what was dead: the effect, or the callback', (it) => {
    it('effects.retry makes a dead effect due now with fresh attempts; anything else is refused by name', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await paid(store, 'order-1');
      const [claim] = await store.effects.claim({ leaseMs: 10_000 });
      truthy(claim, 'effects.claim claimed nothing due');
      await store.effects.fail('order-1', claim.token, { error: 'orders DB down', retryAt: null });
      t.clock.advance(60_000);
      const retried = await store.effects.retry('order-1');
      matches(retried.effect, {
        status: 'due',
        attempts: 0,
        dueAt: t.clock.at(60_000),
        lastError: 'orders DB down',
      });
      equal(await store.records.get('order-1'), retried);
      const again = await rejection(store.effects.retry('order-1'));
      inputError(again);
      messageMatches(again, /effect\.status is due, not dead/);
      const [next] = await store.effects.claim({ leaseMs: 10_000 });
      equal(next?.record.effect.attempts, 1);
      isError(
        await rejection(store.effects.retry('nobody')),
        isTransactionNotFoundError,
        'TransactionNotFoundError',
      );
    });

    it('inbox.requeue makes a dead callback pending and due now; anything else is refused by name', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await store.inbox.append(callback('ENG-1'));
      await store.inbox.append(callback('ENG-2'));
      const [first] = await store.inbox.claim({ leaseMs: 10_000, limit: 1 });
      truthy(first, 'inbox.claim claimed nothing due');
      await store.inbox.finish(first.entry.id, first.token, { status: 'dead', error: 'gave up' });
      t.clock.advance(60_000);
      const requeued = await store.inbox.requeue(first.entry.id);
      matches(requeued, {
        status: 'pending',
        attempts: 0,
        dueAt: t.clock.at(60_000),
        processedAt: null,
        lastError: 'gave up',
      });
      const refused = await rejection(store.inbox.requeue(first.entry.id));
      inputError(refused);
      messageMatches(refused, /status is pending, not dead/);
      messageMatches(
        await rejection(store.inbox.requeue('01NOSUCHENTRY')),
        /names no stored callback/,
      );
      const listed = await store.inbox.list({ paymentReference: 'ENG-1' });
      equal(
        listed.map((entry) => entry.id),
        [first.entry.id],
      );
      const claims = await store.inbox.claim({ leaseMs: 10_000 });
      equal(claims.map((claim) => claim.entry.claim.paymentReference).sort(), ['ENG-1', 'ENG-2']);
    });
  }),
];
