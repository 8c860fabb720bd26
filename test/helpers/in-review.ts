import type { ReferenceStore } from '../../src/references/types.js';
import { moves } from './moves.js';

/**
 * Puts a 1,000 TZS collection `reference` in `needs_review` the way a reconcile pass would leave
 * an underpayment (intent, pending, then review with its reason), for tests of the review tools.
 */
export async function collectionInReview(store: ReferenceStore, reference: string): Promise<void> {
  await store.records.create({
    merchantReference: reference,
    product: 'collection',
    flow: 'mno',
    amount: 1_000,
  });
  await moves(store).transition(reference, 'pending');
  await moves(store).transition(reference, 'needs_review', {
    review: { reason: 'amount_mismatch', message: 'paid 500 of 1000', evidence: {} },
  });
}
