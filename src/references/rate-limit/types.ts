/** What one `take` asks of a bucket. */
export interface RateLimitTake {
  /** The bucket refills at this many tokens a second: the platform requests allowed. */
  ratePerSecond: number;
  /** The most tokens the bucket holds (a new bucket starts full): a whole number, at least 1. */
  burst: number;
  /** Tokens wanted, 1 to `burst`: all are granted, or none. */
  want: number;
}

/** What a `take` got. */
export interface RateLimitGrant {
  /** `want`, or 0 when the bucket holds fewer tokens or is paused. */
  granted: number;
  /** With nothing granted: how long until the tokens wanted are there (or the pause ends); else 0. */
  waitMs: number;
  /** The end of a pause (a platform 429) in force, by the store's clock; null when none. */
  pausedUntil: Date | null;
}

/**
 * One token bucket per key (a merchant account), shared by every process on the store: what
 * keeps all the reconcilers and receivers of one account under the platform's rate limit
 * together. Instants are the store's clock's.
 */
export interface SharedRateLimit {
  /**
   * Takes `want` tokens from `key`'s bucket, all or none. The bucket refills at `ratePerSecond`
   * up to `burst` tokens; takers asking with different rates share its time, each token costing
   * a second divided by the taker's rate.
   */
  take(key: string, take: RateLimitTake): Promise<RateLimitGrant>;
  /**
   * The platform answered 429: nobody takes from `key`'s bucket for `ms` from now. A pause
   * already in force that ends later is kept. Resolves to the end of the pause in force.
   */
  pause(key: string, ms: number): Promise<{ pausedUntil: Date }>;
}
