import type { RateLimitGrant, RateLimitTake } from './types.js';

/** A bucket as every store keeps it: instants in epoch milliseconds. */
export interface BucketState {
  /**
   * When the bucket is full again: each token taken moves it `1000 / ratePerSecond` ms later, and
   * a bucket whose `fullAt` has passed is full. (The generic cell rate algorithm's "theoretical
   * arrival time".)
   */
  fullAt: number;
  pausedUntil: number | null;
}

/** A take decided: the grant, and the state to write (undefined: nothing changed). */
export interface BucketTake {
  grant: RateLimitGrant;
  write: BucketState | undefined;
}

/**
 * The one token-bucket rule, shared by every store. A bucket holds time, not a count: a token
 * costs `1000 / ratePerSecond` ms of it, and a bucket holds at most `burst` tokens' worth. So
 * takers of one account at different rates (a reconciler and a receiver) share its time, each
 * paying at its own rate; none can keep another waiting for ever. All `want` tokens, or none:
 * a taker waits for its whole batch, one write a batch.
 *
 * `fullAt` never moves back: a process whose clock is behind the others' finds the bucket
 * emptier than it is and waits longer; one ahead finds it full at most one burst early.
 */
export function takeTokens(
  state: BucketState | undefined,
  { ratePerSecond, burst, want }: RateLimitTake,
  now: number,
): BucketTake {
  const pausedUntil = state?.pausedUntil ?? null;
  if (pausedUntil !== null && pausedUntil > now) {
    return {
      grant: { granted: 0, waitMs: pausedUntil - now, pausedUntil: new Date(pausedUntil) },
      write: undefined,
    };
  }
  // Whole milliseconds, rounded up: a rate that does not divide a second is kept, never exceeded.
  // What a bucket holds is rounded the same way, so that a full one always grants a whole burst
  // (3/s: a token costs 334 ms and a bucket of one holds 334, not 333 that no token fits in).
  const cost = Math.ceil((want * 1000) / ratePerSecond);
  const holds = Math.ceil((burst * 1000) / ratePerSecond);
  const fullAt = Math.max(state?.fullAt ?? now, now) + cost;
  // The bucket would owe more than it holds: wait until enough has come back.
  if (fullAt - now > holds) {
    return {
      grant: { granted: 0, waitMs: fullAt - now - holds, pausedUntil: null },
      write: undefined,
    };
  }
  return {
    grant: { granted: want, waitMs: 0, pausedUntil: null },
    write: { fullAt, pausedUntil: null },
  };
}

/** A 429 recorded: the later of the pause in force and `now + ms` wins. */
export function pauseBucket(
  state: BucketState | undefined,
  ms: number,
  now: number,
): BucketState & { pausedUntil: number } {
  const pausedUntil = Math.max(state?.pausedUntil ?? 0, now + ms);
  return { fullAt: state?.fullAt ?? now, pausedUntil };
}
