import { isInvalidTransitionError } from '../errors/invalid-transition-error.js';
import type { ReviewVerdict } from '../references/review.js';
import type { ReferenceStore, TransactionRecord } from '../references/types.js';

export type { ReviewVerdict } from '../references/review.js';
export {
  type EffectContext,
  EffectRunner,
  type SettlementHandler,
} from '../settlement/effects.js';
export {
  applyCollectionObservation,
  type CollectionSettlement as SettlementResult,
} from '../settlement/settle-collection.js';

/** Moves a record to `needs_review`; `changed: true` for exactly one caller. */
export async function markForReview(
  store: ReferenceStore,
  merchantReference: string,
  verdict: ReviewVerdict,
): Promise<{ record: TransactionRecord; changed: boolean }> {
  try {
    return await store.transition(merchantReference, 'needs_review', { review: verdict });
  } catch (error) {
    if (!isInvalidTransitionError(error)) throw error;
    const current = await store.get(merchantReference);
    if (!current) throw error;
    return { record: current, changed: false };
  }
}
