import PQueue from 'p-queue';
import type { CollectionTransaction } from '../schemas/collection.js';

export type PullStatus = (reference: string) => Promise<CollectionTransaction>;

/** The amplification guard: one pull per reference in flight (shared), all under one rate limit. */
export class StatusPuller {
  readonly #pull: PullStatus;
  readonly #queue: PQueue;
  readonly #inFlight = new Map<string, Promise<CollectionTransaction>>();
  #pulls = 0;

  constructor(pull: PullStatus, options: { perSecond: number; concurrency: number }) {
    this.#pull = pull;
    this.#queue = new PQueue({
      concurrency: options.concurrency,
      intervalCap: options.perSecond,
      interval: 1000,
    });
  }

  get pulls(): number {
    return this.#pulls;
  }

  pull(reference: string): Promise<CollectionTransaction> {
    const running = this.#inFlight.get(reference);
    if (running) return running;
    const pending = this.#queue
      .add(() => {
        this.#pulls += 1;
        return this.#pull(reference);
      })
      .finally(() => this.#inFlight.delete(reference)) as Promise<CollectionTransaction>;
    this.#inFlight.set(reference, pending);
    return pending;
  }

  get idle(): boolean {
    return this.#queue.size === 0 && this.#queue.pending === 0;
  }

  onIdle(): Promise<void> {
    return this.#queue.onIdle();
  }
}
