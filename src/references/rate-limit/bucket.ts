import type { RateLimitGrant, RateLimitTake } from './types.js';

/** A bucket as every store keeps it: instants in epoch milliseconds. */
export interface BucketState {
  tokens: number;
  /** The instant `tokens` was counted at. */
  updatedAt: number;
  pausedUntil: number | null;
}

/** A take decided: the grant, and the state to write (undefined: nothing changed). */
export interface BucketTake {
  grant: RateLimitGrant;
  write: BucketState | undefined;
}

/**
 * The one token-bucket rule, shared by every store. `now` never moves a bucket back: processes
 * on several machines stamp it with their own clocks, and a clock behind the last stamp refills
 * nothing (rather than a clock ahead refilling the same interval twice), so a skewed clock can
 * only slow the bucket, never let more through.
 */
export function takeTokens(
  state: BucketState | undefined,
  { ratePerSecond, burst, want }: RateLimitTake,
  now: number,
): BucketTake {
  if (state === undefined) {
    // A new bucket starts full: the first requests need not wait.
    const write = { tokens: burst - want, updatedAt: now, pausedUntil: null };
    return { grant: { granted: want, waitMs: 0, pausedUntil: null }, write };
  }
  const at = Math.max(now, state.updatedAt);
  const pausedUntil =
    state.pausedUntil !== null && state.pausedUntil > at ? state.pausedUntil : null;
  if (pausedUntil !== null) {
    return {
      grant: { granted: 0, waitMs: pausedUntil - at, pausedUntil: new Date(pausedUntil) },
      write: undefined,
    };
  }
  const tokens = Math.min(burst, state.tokens + ((at - state.updatedAt) * ratePerSecond) / 1000);
  if (tokens < want) {
    const waitMs = Math.ceil(((want - tokens) * 1000) / ratePerSecond);
    return { grant: { granted: 0, waitMs, pausedUntil: null }, write: undefined };
  }
  return {
    grant: { granted: want, waitMs: 0, pausedUntil: null },
    write: { tokens: tokens - want, updatedAt: at, pausedUntil: null },
  };
}

/** More tokens than any bucket holds (`maxBurst`): a bucket made by a pause is full once it ends. */
const full = 1e9;

/** A 429 recorded: the later of the pause in force and `now + ms` wins. */
export function pauseBucket(
  state: BucketState | undefined,
  ms: number,
  now: number,
): BucketState & { pausedUntil: number } {
  const until = now + ms;
  if (state === undefined) return { tokens: full, updatedAt: now, pausedUntil: until };
  const pausedUntil = Math.max(state.pausedUntil ?? 0, until);
  return { ...state, pausedUntil };
}
