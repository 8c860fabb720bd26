import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import type { RecordMove, ReferenceStore } from '../../src/references/types.js';
import { moves } from '../helpers/moves.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

/**
 * A store where a callback (found by `pesakit_ref`) settles the payment after the SDK got the
 * answer, just before it records the answer (references and `pending`, in one write).
 */
function callbackWinsStore(): ReferenceStore {
  const store = new MemoryReferenceStore();
  const raced = async (merchantReference: string, move: RecordMove) => {
    if (move.references !== undefined && move.change?.status === 'pending') {
      await moves(store).transition(merchantReference, 'success', {
        reason: 'callback verified by pull',
      });
    }
    return store.records.move(merchantReference, move);
  };
  return { ...store, records: { ...store.records, move: raced }, close: () => store.close() };
}

describe('a settlement that overtakes the initiation answer is not an error', () => {
  it('initiateMno resolves with the settled record instead of throwing InvalidTransitionError', async () => {
    const store = callbackWinsStore();
    const pesakit = harness.client({ store });
    const payment = await pesakit.collection.initiateMno(
      { amount: 5_000, msisdn: '255754123456' },
      { merchantReference: 'raced-1' },
    );
    expect(payment.record.status).toBe('success');
    expect(payment.record.controlNumber).toBe(payment.controlNumber);
    expect((await store.records.get('raced-1'))?.status).toBe('success');
  });
});

/** A store where a callback settles the payment while its money call is still timing out. */
function callbackWinsBeforeTimeoutStore(): ReferenceStore {
  const store = new MemoryReferenceStore();
  const raced = async (merchantReference: string, move: RecordMove) => {
    if (move.change?.status === 'unknown' && move.expected === 'initiating') {
      await moves(store).transition(merchantReference, 'success', {
        reason: 'callback verified by pull',
      });
    }
    return store.records.move(merchantReference, move);
  };
  return { ...store, records: { ...store.records, move: raced }, close: () => store.close() };
}

describe('a settlement that overtakes a lost answer is no store failure', () => {
  it('the record stays settled, the call still says its answer was lost, and no PESAKIT_STORE_WRITE_FAILED is emitted', async () => {
    const store = callbackWinsBeforeTimeoutStore();
    const pesakit = harness.client({ store, maxRetries: 0 });
    await pesakit.collection.login();
    const warnings: string[] = [];
    const listen = (warning: Error & { code?: string }) => warnings.push(String(warning.code));
    process.on('warning', listen);
    await harness.control('faults', { latencyMs: 1_000 });
    try {
      const error = await pesakit.collection
        .initiateMno(
          { amount: 5_000, msisdn: '255754123456' },
          { merchantReference: 'raced-2', timeoutMs: 300 },
        )
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'ambiguous_outcome', merchantReference: 'raced-2' });
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
      await harness.control('faults', { latencyMs: 0 });
    }
    expect((await store.records.get('raced-2'))?.status).toBe('success');
    expect(warnings).not.toContain('PESAKIT_STORE_WRITE_FAILED');
  });
});
