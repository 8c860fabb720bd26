import { ApiError } from '../errors/api-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { parseRetryAfter } from '../errors/rate-limit-error.js';

/**
 * The longest `Retry-After` we wait for. A platform asking for more is treated as having said
 * nothing (normal backoff applies), as openai-node does, so a call never hangs for minutes.
 */
export const maxRetryAfterMs = 60_000;

/**
 * Whether a failed attempt of a safe operation is worth repeating: the connection failed or
 * timed out, or the platform said "later" (408, 429) or failed (5xx). Other 4xx answers will
 * not change on a second try.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (error instanceof ApiError) {
    return error.status === 408 || error.status === 429 || error.status >= 500;
  }
  return false;
}

/**
 * How long to wait before retry number `retry` (1-based): the platform's `retry-after-ms` or
 * `Retry-After` when it sent a usable one, else `minMs` doubling up to `maxMs`, shortened by up
 * to 25% at random so that many clients do not retry in step.
 */
export function retryDelayMs(
  retry: number,
  delay: { readonly minMs: number; readonly maxMs: number },
  error: unknown,
  random: () => number = Math.random,
): number {
  if (error instanceof ApiError) {
    const asked = parseRetryAfter(error.headers);
    if (asked !== undefined && asked <= maxRetryAfterMs) return asked;
  }
  const base = Math.min(delay.minMs * 2 ** (retry - 1), delay.maxMs);
  return Math.round(base * (1 - random() * 0.25));
}
