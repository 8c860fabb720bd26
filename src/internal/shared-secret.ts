import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a presented key with the configured one in constant time (both hashed first). */
export function sameSecret(presented: string | string[] | undefined, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
