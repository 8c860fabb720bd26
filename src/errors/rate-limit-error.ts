import { ApiError } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/** 429: too many requests. `retryAfterMs` is what the platform asked us to wait, if it said. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError' as string;
  override readonly code = 'rate_limited' as const;

  get retryAfterMs(): number | undefined {
    return parseRetryAfter(this.headers);
  }
}

export const isRateLimitError = guardFor(RateLimitError, 'RateLimitError');

/** `retry-after-ms`, or `Retry-After` (seconds or an HTTP date); undefined if unreadable. */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) {
    return Number(ms);
  }
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
