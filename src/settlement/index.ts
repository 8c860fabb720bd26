export type { EffectKind } from '../references/effects.js';
export {
  type CollectionRecord,
  DEFAULT_EFFECT_RETRY_DELAYS,
  type EffectContext,
  EffectRunner,
  type EffectRunnerEvents,
  type EffectRunnerOptions,
  type MoneyOutRecord,
  type SettlementHandlers,
} from './effects.js';
