import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MemoryReferenceStore,
  type References,
  type TransactionStatus,
  type TransitionDetails,
} from '../../src/references/index.js';
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
class CallbackWinsStore extends MemoryReferenceStore {
  override async attachAndTransition(
    merchantReference: string,
    refs: References,
    to: TransactionStatus,
    details?: TransitionDetails,
  ) {
    await this.transition(merchantReference, 'success', { reason: 'callback verified by pull' });
    return super.attachAndTransition(merchantReference, refs, to, details);
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
