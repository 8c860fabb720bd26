import { type BucketState, pauseBucket, takeTokens } from './bucket.js';
import type { RateLimitGrant, RateLimitTake, SharedRateLimit } from './types.js';

/** The memory store's buckets: shared by every client on the store object, in this process. */
export class MemoryRateLimit implements SharedRateLimit {
  readonly #buckets = new Map<string, BucketState>();
  readonly #now: () => Date;
  constructor(now: () => Date) {
    this.#now = now;
  }
  async take(key: string, take: RateLimitTake): Promise<RateLimitGrant> {
    const { grant, write } = takeTokens(this.#buckets.get(key), take, this.#now().getTime());
    if (write) this.#buckets.set(key, write);
    return grant;
  }
  async pause(key: string, ms: number): Promise<{ pausedUntil: Date }> {
    const paused = pauseBucket(this.#buckets.get(key), ms, this.#now().getTime());
    this.#buckets.set(key, paused);
    return { pausedUntil: new Date(paused.pausedUntil) };
  }
}
