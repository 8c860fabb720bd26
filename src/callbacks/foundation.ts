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
