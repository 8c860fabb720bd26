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
export {
  type ParsedClaim,
  parseCheckTime,
  parseClaimEffects,
  parseEffectKinds,
  parseEffectStatus,
  parseFailEffect,
  parseListOpen,
  parseListPage,
} from './input-rules/pages-and-effects.js';
export { parseFindBy, parseReferences } from './input-rules/references.js';
export {
  type ParsedAnswerWrite,
  type ParsedTransition,
  parseAnswerWrite,
  parseResolve,
  parseTransition,
} from './input-rules/transition.js';
