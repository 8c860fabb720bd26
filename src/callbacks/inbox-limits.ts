import { maxClaimedReferenceLength, maxInboxUrlLength } from '../references/inbox/input-rules.js';
import type { ParsedCallback } from './parse-callback.js';

/**
 * What the inbox keeps, checked before storing: the store would refuse these with a 503 the
 * platform retries forever, so they are a 4xx naming the field, and nothing is stored.
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
