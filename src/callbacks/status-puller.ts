import PQueue from 'p-queue';
import { ConfigurationError } from '../errors/configuration-error.js';
import { isNotFoundError } from '../errors/not-found-error.js';
import { isRateLimitError } from '../errors/rate-limit-error.js';
import { bucketClock } from '../references/rate-limit/bucket-clock.js';
import { LeasedTokens } from '../references/rate-limit/leased-tokens.js';
import { MemoryRateLimit } from '../references/rate-limit/memory-rate-limit.js';
import type { SharedRateLimit } from '../references/rate-limit/types.js';
import type { CollectionTransaction } from '../schemas/collection.js';
import { ExpiringMap } from './expiring-map.js';

export type PullStatus = (reference: string) => Promise<CollectionTransaction>;

export interface PullerOptions {
  perSecond: number;
  concurrency: number;
  /** An answer is shared by every pull of its reference for this long. */
  windowMs: number;
}

/**
 * The limits of a client's one status puller, shared by its receivers and `verifyCheckoutReturn`
 * (options of `new Pesakit(...)`).
 */
export interface StatusPullOptions {
  /** The rate limit of status pulls, per second: one limit for all of them. @default 20 */
  pullsPerSecond?: number;
  /** Status pulls in flight at once. @default 8 */
  pullConcurrency?: number;
  /** One status pull per reference per window, however many callbacks or returns name it. @default 5000 */
  pullWindowMs?: number;
}

/** The names of the status pull options, which only the client takes. */
export const pullOptionNames = ['pullsPerSecond', 'pullConcurrency', 'pullWindowMs'] as const;

/** Where a puller takes its tokens: a store's buckets and the merchant account's key. */
export interface PullerBucket {
  rateLimit: SharedRateLimit;
  key: string;
}

/** The limits of a puller nobody set any for: a receiver built without a client. */
export const defaultPullLimits: PullerOptions = { perSecond: 20, concurrency: 8, windowMs: 5000 };

/** The client's pull options with their defaults; a bad value is a `ConfigurationError` naming it. */
export function resolvePullLimits(options: StatusPullOptions): PullerOptions {
  const limit = (name: (typeof pullOptionNames)[number], fallback: number, whole = false) => {
    const value = options[name];
    if (value === undefined) return fallback;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
      if (!whole || Number.isInteger(value)) return value;
    }
    throw new ConfigurationError(
      name,
      `new Pesakit: ${name} must be a positive ${whole ? 'whole ' : ''}number (got ${String(value)}).`,
    );
  };
  return {
    perSecond: limit('pullsPerSecond', defaultPullLimits.perSecond),
    concurrency: limit('pullConcurrency', defaultPullLimits.concurrency, true),
    windowMs: limit('pullWindowMs', defaultPullLimits.windowMs),
  };
}

/** A reference the platform does not know (an orphan's) is asked again at most once an hour. */
export const unknownReferenceMs = 3_600_000;
/** Who waits first for a pull slot: a browser, then a known record's callback, then the rest. */
export const pullPriority = { browser: 2, known: 1, other: 0 } as const;

/** The amplification guard: one pull per reference per window, however many claims name it,
 * all under one rate limit; known records' pulls go first (p-queue priorities). */
export class StatusPuller {
  readonly #pull: PullStatus;
  readonly #queue: PQueue;
  readonly #tokens: LeasedTokens;
  readonly #windowMs: number;
  readonly #answers = new ExpiringMap<Promise<CollectionTransaction>>();
  #pulls = 0;

  /**
   * A client's puller takes a token per pull from the merchant account's bucket in its store,
   * shared with its reconcilers and every other process on the store; a receiver built without a
   * client has a bucket of its own, in this process.
   */
  constructor(pull: PullStatus, options: PullerOptions, bucket: PullerBucket = ownBucket()) {
    this.#pull = pull;
    this.#windowMs = options.windowMs;
    this.#queue = new PQueue({ concurrency: options.concurrency });
    this.#tokens = new LeasedTokens({
      ...bucket,
      ratePerSecond: options.perSecond,
      concurrency: options.concurrency,
    });
  }

  /** How long an answer is shared by every pull of its reference. */
  get windowMs(): number {
    return this.#windowMs;
  }

  get pulls(): number {
    return this.#pulls;
  }

  pull(reference: string, priority: number = pullPriority.other): Promise<CollectionTransaction> {
    const shared = this.#answers.get(reference);
    if (shared) return shared;
    const answer = this.#queue.add(
      async () => {
        await this.#tokens.acquire();
        this.#pulls += 1;
        try {
          return await this.#pull(reference);
        } catch (error) {
          // The platform's limit is the merchant's: every process on the store pauses.
          if (isRateLimitError(error)) {
            await this.#tokens.pause(error.retryAfterMs ?? 1000).catch(() => {});
          }
          throw error;
        }
      },
      { priority },
    ) as Promise<CollectionTransaction>;
    // Shared while in flight; then an answer for the window, "not found" for an hour, and any
    // other failure (the platform unreachable) not at all.
    this.#answers.set(reference, answer, Number.POSITIVE_INFINITY);
    answer.then(
      () => this.#answers.set(reference, answer, this.#windowMs),
      (error: unknown) =>
        isNotFoundError(error)
          ? this.#answers.set(reference, answer, unknownReferenceMs)
          : this.#answers.delete(reference, answer),
    );
    return answer;
  }

  get idle(): boolean {
    return this.#queue.size === 0 && this.#queue.pending === 0;
  }

  onIdle(): Promise<void> {
    return this.#queue.onIdle();
  }
}

/** A bucket for this puller alone, in this process. */
function ownBucket(): PullerBucket {
  return { rateLimit: new MemoryRateLimit(bucketClock), key: 'default' };
}
