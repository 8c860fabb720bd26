import type { StoreCase } from '../case.js';
import { answerWriteCases } from './answer-write.js';
import { effectCases } from './effects.js';
import { inboxCases } from './inbox.js';
import { inboxPruneCases } from './inbox-prune.js';
import { leaseCases } from './leases.js';
import { moveCases } from './move.js';
import { rateLimitCases } from './rate-limit.js';
import { readCases } from './reads.js';
import { referenceCases } from './references.js';
import { releaseCases } from './releases.js';
import { reviewCases } from './review.js';
import { transitionCases } from './transitions.js';
import { twoHandleCases } from './two-handles.js';
import { walletCases } from './wallets.js';
import { writeAheadCases } from './write-ahead.js';

/** Every case of the store conformance suite, in the order they run. */
export function storeCases(): StoreCase[] {
  return [
    ...writeAheadCases,
    ...referenceCases,
    ...transitionCases,
    ...answerWriteCases,
    ...moveCases,
    ...readCases,
    ...walletCases,
    ...reviewCases,
    ...effectCases,
    ...inboxCases,
    ...inboxPruneCases,
    ...leaseCases,
    ...releaseCases,
    ...twoHandleCases,
    ...rateLimitCases,
  ];
}
