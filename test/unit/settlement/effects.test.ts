import { describe, expect, it } from 'vitest';
import { MemoryReferenceStore, type TransactionRecord } from '../../../src/references/index.js';
import { EffectRunner } from '../../../src/settlement/effects.js';

function clock() {
  let now = Date.parse('2025-03-01T08:00:00.000Z');
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

async function settled(store: MemoryReferenceStore, reference: string, to: 'success' | 'failed') {
  await store.createIntent({
    merchantReference: reference,
    product: 'collection',
    flow: 'mno',
    amount: 1000,
  });
  await store.transition(reference, 'pending');
  await store.transition(reference, to);
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
    expect((await store.get('a'))?.effect.status).toBe('done');
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
    const dead = await store.listEffects('dead');
    expect(dead[0]?.effect).toMatchObject({ status: 'dead', lastError: 'Error: orders DB down' });
  });

  it('a crashed worker’s effect (lease expired) is run by the next drain', async () => {
    const time = clock();
    const store = new MemoryReferenceStore({ now: time.now });
    await settled(store, 'a', 'success');
    // A worker claimed it and died before running the handler.
    await store.claimEffects({ leaseMs: 60_000, merchantReference: 'a' });
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

  it('onReview gets the verdict; a person’s resolve() makes onPaid run afterwards', async () => {
    const store = new MemoryReferenceStore();
    const calls: string[] = [];
    const runner = new EffectRunner(store, {
      onReview: (record, verdict) =>
        calls.push(`review ${record.merchantReference} ${verdict.reason}`),
      onPaid: (record) => calls.push(`paid ${record.merchantReference} ${record.resolution?.note}`),
    });
    await store.createIntent({
      merchantReference: 'a',
      product: 'collection',
      flow: 'mno',
      amount: 1000,
    });
    await store.transition('a', 'needs_review', {
      review: { reason: 'amount_mismatch', message: 'paid 150 of 1000' },
    });
    await runner.runFor('a');
    await store.resolve('a', 'success', { note: 'balance paid in cash' });
    await runner.runFor('a');
    expect(calls).toEqual(['review a amount_mismatch', 'paid a balance paid in cash']);
  });
});
