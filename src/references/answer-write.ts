import type {
  ReferenceStore,
  References,
  TransactionRecord,
  TransactionStatus,
  TransitionDetails,
} from './types.js';

/**
 * Records a platform answer on `store`: its references, then the status it implies — in one
 * write where the store offers `attachAndTransition`, else in the two calls it stands for (a
 * custom store written before the method existed).
 */
export function attachAndTransition(
  store: ReferenceStore,
  merchantReference: string,
  refs: References,
  to: TransactionStatus,
  details?: TransitionDetails,
): Promise<{ record: TransactionRecord; changed: boolean }> {
  if (store.attachAndTransition) {
    return store.attachAndTransition(merchantReference, refs, to, details);
  }
  return store
    .attachReferences(merchantReference, refs)
    .then(() => store.transition(merchantReference, to, details));
}
