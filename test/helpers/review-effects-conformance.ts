import { afterEach, describe, expect, it } from 'vitest';
import { isInvalidTransitionError } from '../../src/errors/invalid-transition-error.js';
import { isStoreInputError } from '../../src/errors/store-input-error.js';
import { isTransactionNotFoundError } from '../../src/errors/transaction-not-found-error.js';
import type { EffectKind } from '../../src/references/effects.js';
import type { ReferenceStore, TransactionIntent } from '../../src/references/index.js';
import type { ReviewVerdict } from '../../src/references/review.js';
import { callback } from '../callbacks/inbox-conformance.js';
import { failure } from './failure.js';
import type { ReferenceStoreHarness } from './reference-store-conformance.js';

const start = Date.parse('2025-03-01T08:00:00.000Z');

const underpaid: ReviewVerdict = {
  reason: 'amount_mismatch',
  message: 'The platform says 150 TZS were paid for a 5000 TZS order.',
  evidence: { paid_amount: 150, nested: { when: '2025-03-01 08:00:00' } },
};

function intent(merchantReference: string): TransactionIntent {
  return { merchantReference, product: 'collection', flow: 'mno', amount: 5000 };
}

/**
 * The store's half of closing a payment (docs/reference-store.md § Review and effects):
 * `needs_review` with its verdict, a person's `resolve`, and the effect outbox whose claim is the
 * final transition. Run by describeReferenceStore for every store.
 */
export function describeReviewAndEffects(harness: ReferenceStoreHarness): void {
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

  async function paid(store: ReferenceStore, reference: string) {
    await store.createIntent(intent(reference));
    await store.transition(reference, 'pending');
    return (await store.transition(reference, 'success', { reason: 'confirmed by pull' })).record;
  }

  describe('needs_review: a person decides what automation could not', () => {
    it('a move to needs_review must carry a verdict, which is stored with its evidence', async () => {
      const store = await open();
      await store.createIntent(intent('order-1'));
      await store.transition('order-1', 'pending');
      const refused = await failure(store.transition('order-1', 'needs_review'));
      expect(isStoreInputError(refused)).toBe(true);
      expect((refused as { errors: Record<string, string[]> }).errors['review']?.[0]).toMatch(
        /required when moving to needs_review/,
      );
      expect((await store.get('order-1'))?.status).toBe('pending');

      const { record, changed } = await store.transition('order-1', 'needs_review', {
        review: underpaid,
      });
      expect(changed).toBe(true);
      expect(record).toMatchObject({
        status: 'needs_review',
        review: underpaid,
        statusReason: underpaid.message,
      });
      expect(await store.get('order-1')).toEqual(record);
    });

    it('refuses a verdict with an unknown reason, and a verdict on any other move', async () => {
      const store = await open();
      await store.createIntent(intent('order-1'));
      const badReason = await failure(
        store.transition('order-1', 'needs_review', {
          review: { reason: 'looks_odd' as never, message: 'odd' },
        }),
      );
      expect(isStoreInputError(badReason)).toBe(true);
      const misplaced = await failure(
        store.transition('order-1', 'pending', { review: underpaid }),
      );
      expect(isStoreInputError(misplaced)).toBe(true);
      expect((await store.get('order-1'))?.status).toBe('initiating');
    });

    it('nothing automatic leaves needs_review; resolve() records who, why and when', async () => {
      const store = await open();
      await store.createIntent(intent('order-1'));
      await store.transition('order-1', 'needs_review', { review: underpaid });
      for (const to of ['pending', 'success', 'failed'] as const) {
        const error = await failure(store.transition('order-1', to));
        expect(isInvalidTransitionError(error)).toBe(true);
        expect((error as Error).message).toMatch(/store\.resolve\(\)/);
      }
      clock.advance(60_000);
      const resolved = await store.resolve('order-1', 'success', {
        note: 'Customer paid the balance at the counter',
        by: 'neema@duka.co.tz',
      });
      expect(resolved).toMatchObject({
        status: 'success',
        review: underpaid,
        resolution: {
          status: 'success',
          note: 'Customer paid the balance at the counter',
          by: 'neema@duka.co.tz',
          at: new Date(start + 60_000),
        },
        effect: { status: 'due', dueAt: new Date(start + 60_000) },
      });
      expect(await store.get('order-1')).toEqual(resolved);
    });

    it('resolve() refuses anything but a needs_review record, and a missing note', async () => {
      const store = await open();
      await paid(store, 'paid-1');
      const final = await failure(store.resolve('paid-1', 'failed', { note: 'oops' }));
      expect(isInvalidTransitionError(final)).toBe(true);
      expect((final as Error).message).toContain(
        'only a needs_review transaction can be resolved, and this one is success',
      );
      expect((await store.get('paid-1'))?.status).toBe('success');
      await store.createIntent(intent('open-1'));
      const open1 = await failure(store.resolve('open-1', 'success', { note: 'paid in cash' }));
      expect((open1 as Error).message).toContain('this one is initiating');
      expect((await store.get('open-1'))?.status).toBe('initiating');

      await store.createIntent(intent('order-2'));
      await store.transition('order-2', 'needs_review', { review: underpaid });
      const noNote = await failure(store.resolve('order-2', 'success', { note: '  ' }));
      expect(isStoreInputError(noNote)).toBe(true);
      const badOutcome = await failure(store.resolve('order-2', 'pending' as never, { note: 'x' }));
      expect(isStoreInputError(badOutcome)).toBe(true);
      expect((await store.get('order-2'))?.status).toBe('needs_review');
    });

    it('listReview pages through needs_review records by merchant reference', async () => {
      const store = await open();
      for (const reference of ['c', 'a', 'b', 'd']) {
        await store.createIntent(intent(reference));
        if (reference !== 'd')
          await store.transition(reference, 'needs_review', { review: underpaid });
      }
      const first = await store.listReview({ limit: 2 });
      expect(first.map((record) => record.merchantReference)).toEqual(['a', 'b']);
      const rest = await store.listReview({ limit: 2, after: 'b' });
      expect(rest.map((record) => record.merchantReference)).toEqual(['c']);
    });
  });

  describe('effects: the final transition is the claim; the handler runs until it completes', () => {
    it('a move to success, failed or needs_review makes the effect due in the same write', async () => {
      const store = await open();
      await store.createIntent(intent('order-1'));
      const pending = await store.transition('order-1', 'pending');
      expect(pending.record.effect.status).toBe('none');
      const { record } = await store.transition('order-1', 'success');
      expect(record.effect).toEqual({
        status: 'due',
        attempts: 0,
        dueAt: new Date(start),
        lastError: null,
        completedAt: null,
      });
    });

    it('exactly one of many concurrent final transitions wins', async () => {
      const store = await open();
      await store.createIntent(intent('order-1'));
      await store.transition('order-1', 'pending');
      const results = await Promise.all(
        Array.from({ length: 8 }, () => store.transition('order-1', 'success')),
      );
      expect(results.filter((result) => result.changed)).toHaveLength(1);
    });

    it('a claim leases due effects; a second claimer gets nothing while the lease holds', async () => {
      const store = await open();
      await paid(store, 'a');
      clock.advance(1);
      await paid(store, 'b');
      const claims = await store.claimEffects({ leaseMs: 30_000 });
      expect(claims.map((claim) => claim.record.merchantReference)).toEqual(['a', 'b']);
      expect(claims[0]?.record.effect).toMatchObject({ status: 'running', attempts: 1 });
      expect(await store.claimEffects({ leaseMs: 30_000 })).toEqual([]);
      expect((await store.listEffects('running')).length).toBe(2);
    });

    it('completing needs the current token; an expired lease is claimed again and fences the old holder', async () => {
      const store = await open();
      await paid(store, 'order-1');
      const [first] = await store.claimEffects({ leaseMs: 10_000 });
      clock.advance(10_000);
      // The first worker's lease expired: its completion must not count.
      expect(await store.completeEffect('order-1', first!.token)).toBe(false);
      const [second] = await store.claimEffects({ leaseMs: 10_000 });
      expect(second?.token).not.toBe(first?.token);
      expect(second?.record.effect.attempts).toBe(2);
      expect(await store.completeEffect('order-1', first!.token)).toBe(false);
      expect(await store.failEffect('order-1', first!.token, { error: 'x', retryAt: null })).toBe(
        false,
      );
      expect(await store.completeEffect('order-1', second!.token)).toBe(true);
      const done = await store.get('order-1');
      expect(done?.effect).toMatchObject({ status: 'done', completedAt: new Date(start + 10_000) });
      expect(await store.completeEffect('order-1', second!.token)).toBe(false);
      expect(await store.claimEffects({ leaseMs: 10_000 })).toEqual([]);
    });

    it('a failed run is due again at retryAt, and dead-lettered when there is no retry', async () => {
      const store = await open();
      await paid(store, 'order-1');
      const [claim] = await store.claimEffects({ leaseMs: 10_000 });
      expect(
        await store.failEffect('order-1', claim!.token, {
          error: 'orders DB down',
          retryAt: new Date(start + 5000),
        }),
      ).toBe(true);
      expect((await store.get('order-1'))?.effect).toMatchObject({
        status: 'due',
        lastError: 'orders DB down',
        dueAt: new Date(start + 5000),
      });
      expect(await store.claimEffects({ leaseMs: 10_000 })).toEqual([]);
      clock.advance(5000);
      const [again] = await store.claimEffects({ leaseMs: 10_000 });
      expect(again?.record.effect.attempts).toBe(2);
      await store.failEffect('order-1', again!.token, { error: 'still down', retryAt: null });
      const dead = await store.listEffects('dead');
      expect(dead.map((record) => record.merchantReference)).toEqual(['order-1']);
      expect(dead[0]?.effect).toMatchObject({ status: 'dead', lastError: 'still down' });
      clock.advance(86_400_000);
      expect(await store.claimEffects({ leaseMs: 10_000 })).toEqual([]);
    });

    it('claims one record by merchant reference, leaving the others due', async () => {
      const store = await open();
      await paid(store, 'a');
      await paid(store, 'b');
      const claims = await store.claimEffects({ leaseMs: 10_000, merchantReference: 'b' });
      expect(claims.map((claim) => claim.record.merchantReference)).toEqual(['b']);
      expect((await store.listEffects('due')).map((record) => record.merchantReference)).toEqual([
        'a',
      ]);
    });

    it('refuses bad claim options and changes nothing', async () => {
      const store = await open();
      await paid(store, 'a');
      for (const options of [
        { leaseMs: 0 },
        { leaseMs: 1.5 },
        { leaseMs: 1000, limit: 0 },
        { leaseMs: 1000, handles: ['paid_out' as never] },
      ]) {
        expect(isStoreInputError(await failure(store.claimEffects(options)))).toBe(true);
      }
      expect((await store.get('a'))?.effect.status).toBe('due');
    });

    it('claims only the kinds asked for: money in is paid/failed, money out sent/not_sent; a recharge settles with none', async () => {
      const store = await open();
      const settle = async (intent: TransactionIntent, to: 'success' | 'failed') => {
        await store.createIntent(intent);
        await store.transition(intent.merchantReference, 'pending');
        return (await store.transition(intent.merchantReference, to)).record;
      };
      const msisdn = '255754123456';
      await settle(intent('in-paid'), 'success');
      await settle(intent('in-failed'), 'failed');
      const payout = { product: 'disbursement', flow: 'disbursement', amount: 5000 } as const;
      await settle({ merchantReference: 'out-payout', msisdn, ...payout }, 'success');
      const sale = { product: 'airtime', flow: 'airtime_purchase', amount: 500, msisdn } as const;
      await settle({ merchantReference: 'out-airtime', ...sale }, 'success');
      await settle({ merchantReference: 'out-refused', ...sale }, 'failed');
      const topUp = { ...sale, flow: 'airtime_recharge' } as const;
      const recharged = await settle({ merchantReference: 'top-up', ...topUp }, 'success');
      expect(recharged.effect.status).toBe('none');
      await store.createIntent({ merchantReference: 'top-up-2', ...topUp });
      await store.transition('top-up-2', 'needs_review', { review: underpaid });

      const names = (records: { merchantReference: string }[]) =>
        records.map((record) => record.merchantReference).sort();
      const due = async (handles: EffectKind[]) =>
        names(await store.listEffects('due', { handles }));
      expect(await due(['paid', 'failed'])).toEqual(['in-failed', 'in-paid']);
      expect(await due(['sent'])).toEqual(['out-airtime', 'out-payout']);
      expect(await due(['not_sent'])).toEqual(['out-refused']);
      expect(await due([])).toEqual([]);
      const claims = await store.claimEffects({ leaseMs: 10_000, handles: ['sent', 'review'] });
      expect(names(claims.map((claim) => claim.record))).toEqual([
        'out-airtime',
        'out-payout',
        'top-up-2',
      ]);
      expect(
        await store.claimEffects({
          leaseMs: 10_000,
          merchantReference: 'in-paid',
          handles: ['sent'],
        }),
      ).toEqual([]);
      expect(await due(['paid', 'failed', 'not_sent'])).toEqual([
        'in-failed',
        'in-paid',
        'out-refused',
      ]);
      // A person settles the recharge: its review effect is over, and its outcome runs none.
      const resolved = await store.resolve('top-up-2', 'success', { note: 'credited' });
      expect(resolved.effect.status).toBe('done');
      expect(await store.listEffects('due', { handles: ['sent'] })).toEqual([]);
    });
  });

  describe('a person retries what was dead: the effect, or the callback', () => {
    it('retryEffect makes a dead effect due now with fresh attempts; anything else is refused by name', async () => {
      const store = await open();
      await paid(store, 'order-1');
      const [claim] = await store.claimEffects({ leaseMs: 10_000 });
      await store.failEffect('order-1', claim!.token, { error: 'orders DB down', retryAt: null });
      clock.advance(60_000);
      const retried = await store.retryEffect('order-1');
      expect(retried.effect).toMatchObject({
        status: 'due',
        attempts: 0,
        dueAt: new Date(start + 60_000),
        lastError: 'orders DB down',
      });
      expect(await store.get('order-1')).toEqual(retried);
      const again = await failure(store.retryEffect('order-1'));
      expect(isStoreInputError(again)).toBe(true);
      expect((again as Error).message).toMatch(/effect\.status is due, not dead/);
      const [next] = await store.claimEffects({ leaseMs: 10_000 });
      expect(next?.record.effect.attempts).toBe(1);
      expect(isTransactionNotFoundError(await failure(store.retryEffect('nobody')))).toBe(true);
    });

    it('inbox.requeue makes a dead callback pending and due now; anything else is refused by name', async () => {
      const store = await open();
      await store.inbox.append(callback('ENG-1'));
      await store.inbox.append(callback('ENG-2'));
      const [first] = await store.inbox.claim({ leaseMs: 10_000, limit: 1 });
      await store.inbox.deadLetter(first!.entry.id, first!.token, 'gave up');
      clock.advance(60_000);
      const requeued = await store.inbox.requeue(first!.entry.id);
      expect(requeued).toMatchObject({
        status: 'pending',
        attempts: 0,
        dueAt: new Date(start + 60_000),
        processedAt: null,
        lastError: 'gave up',
      });
      const refused = await failure(store.inbox.requeue(first!.entry.id));
      expect(isStoreInputError(refused)).toBe(true);
      expect((refused as Error).message).toMatch(/status is pending, not dead/);
      const missing = await failure(store.inbox.requeue('01NOSUCHENTRY'));
      expect((missing as Error).message).toMatch(/names no stored callback/);
      const listed = await store.inbox.list({ paymentReference: 'ENG-1' });
      expect(listed.map((entry) => entry.id)).toEqual([first!.entry.id]);
      const claims = await store.inbox.claim({ leaseMs: 10_000 });
      expect(claims.map((claim) => claim.entry.claim.paymentReference).sort()).toEqual([
        'ENG-1',
        'ENG-2',
      ]);
    });
  });
}
