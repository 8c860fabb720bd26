import { monotonicFactory } from 'ulid';

// One factory per process: within a millisecond it increments the random part instead of
// drawing a new one, so references made in a burst still sort in creation order.
const nextUlid = monotonicFactory();

/**
 * A new merchant reference: a ULID (48-bit millisecond time + 80 random bits, 26 characters of
 * Crockford's base32, which has no I, L, O, U, so a reference read aloud over the phone
 * survives). References sort by creation time, so a list of them reads in order.
 *
 * @example newMerchantReference() // '01JD3Q4Z8W5K2T9XG7M1RVB6NC'
 */
export function newMerchantReference(now: number = Date.now()): string {
  return nextUlid(now);
}

/** What a merchant may use as its own reference: 1–64 of letters, digits, `_ - : .`. */
export const merchantReferencePattern = /^[A-Za-z0-9_\-:.]{1,64}$/;
