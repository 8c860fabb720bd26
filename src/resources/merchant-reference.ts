import { getRandomValues } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { findControlCharacter } from '../schemas/control-characters.js';

/** CSPRNG bytes for the ULID's random part, drawn in batches rather than one call a character. */
const pool = new Uint8Array(4096);
let next = pool.length;

function pooledRandom(): number {
  if (next === pool.length) {
    getRandomValues(pool);
    next = 0;
  }
  // Each byte is used once: `next` only moves forward until the next refill.
  const byte = pool[next] as number;
  next += 1;
  return byte / 256;
}

// One factory per process: within a millisecond it increments the random part instead of
// drawing a new one, so references made in a burst still sort in creation order.
const nextUlid = monotonicFactory(pooledRandom);

/** A new merchant reference: a ULID (26 characters of Crockford's base32), sorting by creation. */
export function newMerchantReference(now: number = Date.now()): string {
  return nextUlid(now);
}

/** What a merchant may use as its own reference: 1–64 of letters, digits, `_ - : .`. */
export const merchantReferencePattern = /^[A-Za-z0-9_\-:.]{1,64}$/;

/** Why `value` cannot be a merchant reference, or `undefined`; a control character is named. */
export function merchantReferenceProblem(value: string): string | undefined {
  const found = findControlCharacter(value);
  if (found !== undefined) {
    return `The merchantReference may not contain control characters (found ${found}).`;
  }
  return merchantReferencePattern.test(value)
    ? undefined
    : 'The merchantReference must be 1–64 letters, digits, or _ - : .';
}
