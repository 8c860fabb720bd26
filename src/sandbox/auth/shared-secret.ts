import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares a presented key (control key, engine key, pay_mobile API key) with the configured one
 * in constant time. Both are hashed first so that their lengths do not leak either.
 */
export function sameSecret(presented: string | string[] | undefined, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
