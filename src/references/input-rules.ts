/** Every store checks its arguments with these first, so all refuse the same input alike. */
export {
  isLookupable,
  maxReferencesPerRead,
  type ParsedIntent,
  parseIntent,
  parseMerchantReference,
  parseMerchantReferences,
  productOfFlow,
} from './input-rules/intent.js';
export { type ParsedChange, type ParsedMove, parseMove } from './input-rules/move.js';
export {
  type ParsedClaim,
  parseClaimEffects,
  parseEffectKinds,
  parseEffectStatus,
  parseFailEffect,
  parseListOpen,
  parseListPage,
} from './input-rules/pages-and-effects.js';
export { parseFindBy, parseReferences } from './input-rules/references.js';
export {
  type ParsedTransition,
  parseResolve,
  parseTransition,
} from './input-rules/transition.js';
