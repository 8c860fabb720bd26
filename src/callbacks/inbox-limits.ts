import { maxClaimedReferenceLength, maxInboxUrlLength } from '../references/inbox/input-rules.js';
import type { ParsedCallback } from './parse-callback.js';

/** Checked before storing: the store's refusal would be a 503 retried forever, so a 4xx. */
export { maxInboxUrlLength };

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
