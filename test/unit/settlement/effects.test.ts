import { describe, expect, it } from 'vitest';
import type { EffectOutbox } from '../../../src/references/effects.js';
import { MemoryReferenceStore, type TransactionRecord } from '../../../src/references/index.js';
import { EffectRunner } from '../../../src/settlement/effects.js';
import { moves } from '../../helpers/moves.js';

function clock() {
  let now = Date.parse('2025-03-01T08:00:00.000Z');
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const money = {
  in: { product: 'collection', flow: 'mno' },
  payout: { product: 'disbursement', flow: 'disbursement' },
  airtime: { product: 'airtime', flow: 'airtime_purchase' },
  recharge: { product: 'airtime', flow: 'airtime_recharge' },
} as const;

async function settled(
  store: MemoryReferenceStore,
  reference: string,
  to: 'success' | 'failed',
  kind: keyof typeof money = 'in',
) {
  await store.records.create({ merchantReference: reference, ...money[kind], amount: 1000 });
  await moves(store).transition(reference, 'pending');
  await moves(store).transition(reference, to);
}

describe('effects: the transition happens once; the handler runs at least once until it completes', () => {
  it('runs onPaid for success and onFailed for failed, once, with the merchant reference as effectKey', async () => {
    const store = new MemoryReferenceStore();
    const calls: string[] = [];
    const runner = new EffectRunner(store, {
      onPaid: (record, context) =>
        calls.push(`paid ${record.merchantReference} ${context.effectKey} #${context.attempt}`),
      onFailed: (record) => calls.push(`failed ${record.merchantReference}`),
    });
    await settled(store, 'a', 'success');
    await settled(store, 'b', 'failed');
    expect(await runner.runFor('a')).toBe(true);
    expect(await runner.runFor('a')).toBe(false);
    expect(await runner.drain()).toBe(1);
    expect(await runner.drain()).toBe(0);
    expect(calls).toEqual(['paid a a #1', 'failed b']);
    expect((await store.records.get('a'))?.effect.status).toBe('done');
  });

  it('concurrent runners (a callback and the reconciler) run the handler once', async () => {
    const store = new MemoryReferenceStore();
    let runs = 0;
    const handlers = {
      onPaid: async () => {
        runs += 1;
      },
    };
    const runners = [new EffectRunner(store, handlers), new EffectRunner(store, handlers)];
    await settled(store, 'a', 'success');
    await Promise.all([...runners.map((r) => r.runFor('a')), ...runners.map((r) => r.drain())]);
    expect(runs).toBe(1);
  });

  it('a throwing handler is retried on the schedule, then dead-lettered', async () => {
    const time = clock();
    const store = new MemoryReferenceStore({ now: time.now });
    const events: string[] = [];
    const runner = new EffectRunner(
      store,
      {
        onPaid: () => {
          throw new Error('orders DB down');
        },
      },
      { now: time.now, retryDelaysMs: [1000, 5000], maxAttempts: 3 },
    );
    runner.on('effect_failed', (e) =>
      events.push(`retry #${e.attempt} at +${e.retryAt.getTime() - time.now().getTime()}`),
    );
    runner.on('dead', (e) => events.push(`dead after ${e.attempts}`));
    await settled(store, 'a', 'success');
    await runner.runFor('a');
    expect(await runner.drain()).toBe(0); // not due yet
    time.advance(1000);
    await runner.drain();
    time.advance(5000);
    await runner.drain();
    expect(events).toEqual(['retry #1 at +1000', 'retry #2 at +5000', 'dead after 3']);
    const dead = await store.effects.list('dead');
    expect(dead[0]?.effect).toMatchObject({ status: 'dead', lastError: 'Error: orders DB down' });
  });

  it('a crashed worker’s effect (lease expired) is run by the next drain', async () => {
    const time = clock();
    const store = new MemoryReferenceStore({ now: time.now });
    await settled(store, 'a', 'success');
    // A worker claimed it and died before running the handler.
    await store.effects.claim({ leaseMs: 60_000, merchantReference: 'a' });
    const paid: TransactionRecord[] = [];
    const runner = new EffectRunner(
      store,
      { onPaid: (record) => void paid.push(record) },
      { now: time.now },
    );
    expect(await runner.drain()).toBe(0);
    time.advance(60_000);
    expect(await runner.drain()).toBe(1);
    expect(paid.map((record) => record.merchantReference)).toEqual(['a']);
  });

  it('a claim answered on the last quarter of its lease does not run the handler: the next claim after the lease does, once', async () => {
    const time = clock();
    const store = new MemoryReferenceStore({ now: time.now });
    await settled(store, 'a', 'success');
    // The store dates the lease when asked, then waits 50 s for its write lock (a busy file).
    const slow = {
      effects: {
        ...store.effects,
        claim: async (options) => {
          const claims = await store.effects.claim(options);
          time.advance(50_000);
          return claims;
        },
      } satisfies EffectOutbox,
    };
    const runs: string[] = [];
    const handler = (who: string) => ({ onPaid: () => void runs.push(who) });
    const late = new EffectRunner(slow, handler('late'), { now: time.now });
    expect(await late.drain()).toBe(1);
    expect(runs).toEqual([]);
    time.advance(10_000);
    // Another process takes the expired lease over: the handler runs there, and only there.
    const next = new EffectRunner(store, handler('next'), { now: time.now });
    expect(await next.drain()).toBe(1);
    expect(runs).toEqual(['next']);
    expect((await store.records.get('a'))?.effect.status).toBe('done');
  });

  it('a completion the store could not write (a database restarting) is written once it can: the handler is not run again', async () => {
    const store = new MemoryReferenceStore();
    await settled(store, 'a', 'success');
    let down = 2;
    const restarting = {
      effects: {
        ...store.effects,
        complete: async (reference, token) => {
          if (down > 0) {
            down -= 1;
            throw new Error('connect ECONNREFUSED');
          }
          return store.effects.complete(reference, token);
        },
      } satisfies EffectOutbox,
    };
    let runs = 0;
    const runner = new EffectRunner(restarting, {
      onPaid: () => {
        runs += 1;
      },
    });
    expect(await runner.drain()).toBe(1);
    expect(runs).toBe(1);
    expect((await store.records.get('a'))?.effect.status).toBe('done');
  });

  it('onReview gets the verdict; a person’s resolve() makes onPaid run afterwards', async () => {
    const store = new MemoryReferenceStore();
    const calls: string[] = [];
    const runner = new EffectRunner(store, {
      onReview: (record, verdict) =>
        calls.push(`review ${record.merchantReference} ${verdict.reason}`),
      onPaid: (record) => calls.push(`paid ${record.merchantReference} ${record.resolution?.note}`),
    });
    await store.records.create({
      merchantReference: 'a',
      product: 'collection',
      flow: 'mno',
      amount: 1000,
    });
    await moves(store).transition('a', 'needs_review', {
      review: { reason: 'amount_mismatch', message: 'paid 150 of 1000' },
    });
    await runner.runFor('a');
    await moves(store).resolve('a', 'success', { note: 'balance paid in cash' });
    await runner.runFor('a');
    expect(calls).toEqual(['review a amount_mismatch', 'paid a balance paid in cash']);
  });

  it('money out runs onSent or onNotSent, never onPaid or onFailed; a recharge runs nothing', async () => {
    const store = new MemoryReferenceStore();
    const calls: string[] = [];
    const runner = new EffectRunner(store, {
      onPaid: (record) => calls.push(`paid ${record.merchantReference}`),
      onFailed: (record) => calls.push(`failed ${record.merchantReference}`),
      onSent: (record) => calls.push(`sent ${record.product} ${record.merchantReference}`),
      onNotSent: (record) => calls.push(`not sent ${record.product} ${record.merchantReference}`),
    });
    await settled(store, 'p1', 'success', 'payout');
    await settled(store, 'p2', 'failed', 'payout');
    await settled(store, 'a1', 'success', 'airtime');
    await settled(store, 'a2', 'failed', 'airtime');
    await settled(store, 'r1', 'success', 'recharge');
    expect(await runner.drain()).toBe(4);
    expect(calls.sort()).toEqual([
      'not sent airtime a2',
      'not sent disbursement p2',
      'sent airtime a1',
      'sent disbursement p1',
    ]);
    expect((await store.records.get('r1'))?.effect.status).toBe('none');
  });

  it('a runner claims only the kinds it has handlers for; without any, it claims nothing', async () => {
    const store = new MemoryReferenceStore();
    await settled(store, 'in', 'success');
    await settled(store, 'out', 'failed', 'payout');
    expect(await new EffectRunner(store, {}).drain()).toBe(0);
    expect(await new EffectRunner(store, { onPaid: () => {} }).runFor('out')).toBe(false);
    expect(await new EffectRunner(store, { onNotSent: () => {} }).drain()).toBe(1);
    expect((await store.effects.list('due')).map((record) => record.merchantReference)).toEqual([
      'in',
    ]);
  });
});
