import { z } from 'zod';
import { withoutControlCharacters } from '../../schemas/control-characters.js';
import { parse } from '../input-rules/common.js';
import type { RateLimitGrant, RateLimitTake, SharedRateLimit } from './types.js';

/** The longest pause a 429 can ask for (the platform's `Retry-After` is capped to it). */
export const maxPauseMs = 86_400_000;
/** The fastest bucket: a higher rate limits nothing a platform could serve. */
export const maxRatePerSecond = 1_000_000_000;
/** The largest bucket. */
export const maxBurst = 100_000_000;

const keySchema = z
  .string({ error: 'must be a string (the merchant account the bucket limits)' })
  .min(1, { error: 'must not be empty' })
  .max(512, { error: 'must be at most 512 characters' })
  .check(
    withoutControlCharacters((found) => `must not contain control characters (found ${found})`),
  );

const takeSchema = z
  .object(
    {
      ratePerSecond: z
        .number({ error: 'must be a number of requests a second' })
        .positive({ error: 'must be above 0' })
        .max(maxRatePerSecond, { error: `must be at most ${maxRatePerSecond}` }),
      burst: z
        .number({ error: 'must be a whole number of tokens' })
        .int({ error: 'must be a whole number of tokens' })
        .min(1, { error: 'must be at least 1' })
        .max(maxBurst, { error: `must be at most ${maxBurst}` }),
      want: z
        .number({ error: 'must be a whole number of tokens' })
        .int({ error: 'must be a whole number of tokens' })
        .min(1, { error: 'must be at least 1' }),
    },
    { error: 'must be an object { ratePerSecond, burst, want }' },
  )
  .refine((take) => take.want <= take.burst, {
    error: 'must be at most burst (a bucket never holds more)',
    path: ['want'],
  });

const pauseSchema = z
  .number({ error: 'must be a whole number of milliseconds' })
  .int({ error: 'must be a whole number of milliseconds' })
  .min(1, { error: 'must be at least 1' })
  .max(maxPauseMs, { error: `must be at most ${maxPauseMs} (a day)` });

/**
 * The part as callers see it: every input checked here, once, for every store (a bad one is a
 * `StoreInputError` naming the field and rule, and changes nothing), then handed to `buckets`.
 */
export function checkedRateLimit(buckets: SharedRateLimit): SharedRateLimit {
  return {
    take(key: string, take: RateLimitTake): Promise<RateLimitGrant> {
      try {
        parse('rateLimit.take', 'key', keySchema, key);
        const { ratePerSecond, burst, want } = parse('rateLimit.take', 'take', takeSchema, take);
        return buckets.take(key, { ratePerSecond, burst, want });
      } catch (error) {
        return Promise.reject(error);
      }
    },
    pause(key: string, ms: number): Promise<{ pausedUntil: Date }> {
      try {
        parse('rateLimit.pause', 'key', keySchema, key);
        parse('rateLimit.pause', 'ms', pauseSchema, ms);
        return buckets.pause(key, ms);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
