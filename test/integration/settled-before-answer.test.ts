import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryReferenceStore, type References } from '../../src/references/index.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

/**
 * A store where a callback (found by `pesakit_ref`) settles the payment right after the SDK
 * attached the references from the answer, and before it records the answer's `pending`.
 */
class CallbackWinsStore extends MemoryReferenceStore {
  override async attachReferences(merchantReference: string, refs: References) {
    const record = await super.attachReferences(merchantReference, refs);
    await this.transition(merchantReference, 'success', { reason: 'callback verified by pull' });
    return record;
  }
}

describe('a settlement that overtakes the initiation answer is not an error', () => {
  it('initiateMno resolves with the settled record instead of throwing InvalidTransitionError', async () => {
    const store = new CallbackWinsStore();
    const pesakit = harness.client({ store });
    const payment = await pesakit.collection.initiateMno(
      { amount: 5_000, msisdn: '255754123456' },
      { merchantReference: 'raced-1' },
    );
    expect(payment.record.status).toBe('success');
    expect(payment.record.controlNumber).toBe(payment.controlNumber);
    expect((await store.get('raced-1'))?.status).toBe('success');
  });
});
