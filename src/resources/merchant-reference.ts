import { randomBytes } from 'node:crypto';

// Crockford's base32: no I, L, O, U, so a reference read aloud over the phone survives.
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

let lastTime = -1;
let lastRandom: number[] = [];

/**
 * A new merchant reference: a ULID (48-bit millisecond time + 80 random bits, 26 characters).
 * References sort by creation time, so a list of them reads in order, and two created in the
 * same millisecond by this process still sort correctly (the random part is incremented).
 *
 * @example newMerchantReference() // '01JD3Q4Z8W5K2T9XG7M1RVB6NC'
 */
export function newMerchantReference(now: number = Date.now()): string {
  if (now === lastTime) {
    lastRandom = increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = [...randomBytes(16)].map((byte) => byte % 32).slice(0, 16);
  }
  return encodeTime(now) + lastRandom.map((digit) => alphabet[digit]).join('');
}

function encodeTime(time: number): string {
  let out = '';
  let rest = time;
  for (let i = 0; i < 10; i++) {
    out = alphabet[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function increment(digits: number[]): number[] {
  const next = [...digits];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i] = next[i]! + 1;
      return next;
    }
    next[i] = 0;
  }
  // 32^16 references in one millisecond cannot happen; wrapping keeps the function total.
  return next;
}

/** What a merchant may use as its own reference: 1–64 of letters, digits, `_ - : .`. */
export const merchantReferencePattern = /^[A-Za-z0-9_\-:.]{1,64}$/;
