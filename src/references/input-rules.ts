/**
 * The rules every store applies to its arguments before touching anything, so that the three
 * implementations refuse exactly the same input with exactly the same error. One file per kind
 * of argument under `input-rules/`; the stores import them from here.
 */
export {
  isLookupable,
  parseIntent,
  parseMerchantReference,
  productOfFlow,
} from './input-rules/intent.js';
export {
  parseCheckTime,
  parseClaimEffects,
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
