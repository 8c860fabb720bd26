import PQueue from 'p-queue';
import { ConfigurationError } from '../errors/configuration-error.js';
import { isNotFoundError } from '../errors/not-found-error.js';
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
  readonly #windowMs: number;
  readonly #answers = new ExpiringMap<Promise<CollectionTransaction>>();
  #pulls = 0;

  constructor(pull: PullStatus, options: PullerOptions) {
    this.#pull = pull;
    this.#windowMs = options.windowMs;
    this.#queue = new PQueue({
      concurrency: options.concurrency,
      intervalCap: options.perSecond,
      interval: 1000,
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
      () => {
        this.#pulls += 1;
        return this.#pull(reference);
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
