export {
  type CollectionRecord,
  DEFAULT_EFFECT_RETRY_DELAYS,
  type EffectContext,
  type EffectKind,
  EffectRunner,
  type EffectRunnerEvents,
  type EffectRunnerOptions,
  type MoneyOutRecord,
  type SettlementHandlers,
} from './effects.js';
export { applyCollectionObservation, type CollectionSettlement } from './settle-collection.js';
