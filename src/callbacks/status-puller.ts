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

const clients = new WeakMap<object, { pull: PullStatus; puller?: StatusPuller }>();

/** A client's raw status pull, so that its receivers and `verifyCheckoutReturn` share one puller. */
export function registerStatusPull(client: object, pull: PullStatus): void {
  clients.set(client, { pull });
}

/** The client's one puller: made on first use, with the options of whoever uses it first. */
export function clientPuller(
  client: object,
  options: PullerOptions = { perSecond: 20, concurrency: 8, windowMs: 5000 },
): StatusPuller {
  const registered = clients.get(client);
  if (!registered) {
    throw new ConfigurationError('pesakit', 'Pass the Pesakit client (`new Pesakit(...)`) itself.');
  }
  registered.puller ??= new StatusPuller(registered.pull, options);
  return registered.puller;
}
