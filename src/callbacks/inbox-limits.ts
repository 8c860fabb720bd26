import { maxClaimedReferenceLength, maxInboxUrlLength } from '../references/inbox/input-rules.js';
import type { ParsedCallback } from './parse-callback.js';

/**
 * What the inbox keeps, checked before it is asked to keep it. The store's own rules
 * (`src/references/inbox/input-rules.ts`, which owns these limits) refuse anything longer with a
 * `StoreInputError`, and the receiver answers a store that cannot write with 503 — "try again
 * later". For these the answer would never change, so the platform would resend a callback
 * forever that is refused forever. They are client input: a 4xx, naming what is wrong, before
 * anything is stored.
 */
export { maxInboxUrlLength };

/** The 422 field errors for a parsed callback the inbox cannot keep; `undefined` when it fits. */
export function claimTooLong(callback: ParsedCallback): Record<string, string[]> | undefined {
  const reference = callback.claim.paymentReference;
  // PostgreSQL text cannot hold a NUL: refused forever, so a 422 rather than a 503.
  if (reference.includes('\u0000')) {
    return {
      'data.paymentReference': ['The data.paymentReference must not contain a NUL character.'],
    };
  }
  if (reference.length <= maxClaimedReferenceLength) return undefined;
  return {
    'data.paymentReference': [
      `The data.paymentReference may not be greater than ${maxClaimedReferenceLength} characters.`,
    ],
  };
}
