import type { ParsedCallback } from './parse-callback.js';

/**
 * What the inbox keeps, checked before it is asked to keep it. The store's own rules
 * (`src/references/inbox/input-rules.ts`: a request target of at most 8192 characters, a claimed
 * `paymentReference` of at most 255) refuse anything longer with a `StoreInputError`, and the
 * receiver answers a store that cannot write with 503 — "try again later". For these the answer
 * would never change, so the platform would resend a callback forever that is refused forever.
 * They are client input: a 4xx, naming what is wrong, before anything is stored.
 */
export const MAX_INBOX_URL_LENGTH = 8192;
export const MAX_CLAIMED_REFERENCE_LENGTH = 255;

/** The 422 field errors for a parsed callback the inbox cannot keep; `undefined` when it fits. */
export function claimTooLong(callback: ParsedCallback): Record<string, string[]> | undefined {
  if (callback.claim.paymentReference.length <= MAX_CLAIMED_REFERENCE_LENGTH) return undefined;
  return {
    'data.paymentReference': [
      `The data.paymentReference may not be greater than ${MAX_CLAIMED_REFERENCE_LENGTH} characters.`,
    ],
  };
}
