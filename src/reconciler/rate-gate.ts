import type { EventEmitter } from 'eventemitter3';
import PQueue from 'p-queue';
import type { TransportEvents } from '../core/transport-events.js';
import { isRateLimitError } from '../errors/rate-limit-error.js';

/**
 * Every platform request of the reconciler goes through one gate: bounded concurrency and a
 * requests-per-second cap (p-queue's interval cap). A 429 pauses the whole gate for the
 * platform's Retry-After (or a second when it gave none) and the request is tried again — the
 * platform asked all of us to slow down, not one record.
 */
export class RateGate {
  readonly #queue: PQueue;
  #pausedUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Called when a 429 pauses the gate (for the reconciler's events). */
  onPause: ((ms: number) => void) | undefined;

  constructor(options: { concurrency: number; ratePerSecond: number }) {
    // A fractional rate (0.5/s) becomes one request per 2 s.
    const perSecond = options.ratePerSecond;
    const intervalCap = Math.max(1, Math.floor(perSecond));
    const interval = Math.round((1000 * intervalCap) / perSecond);
    this.#queue = new PQueue({ concurrency: options.concurrency, intervalCap, interval });
  }

  /** Runs `request` under the limits; a 429 pauses everyone and retries (at most 5 times). */
  async run<T>(request: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return (await this.#queue.add(() => this.#watch(request))) as T;
      } catch (error) {
        if (!isRateLimitError(error) || attempt >= 5) throw error;
      }
    }
  }

  /** Pauses inside the queued task, so the queue stops before it starts the next one. */
  async #watch<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (isRateLimitError(error)) this.pause(error.retryAfterMs ?? 1000);
      throw error;
    }
  }

  /**
   * Pauses the gate at the platform's first 429, while the transport waits out its own retry of
   * that call: without this, every other request in flight or queued would meet its own 429 and
   * back off on its own, and the gate would hear of the limit only once a call had used up all
   * its retries. Any call of the client counts (the platform's limit is the merchant's, not the
   * reconciler's). Returns the function that stops listening.
   */
  watchRetries(events: EventEmitter<TransportEvents>): () => void {
    const onRetry = (event: TransportEvents['retry'][0]) => {
      if (event.status === 429) this.pause(event.delayMs);
    };
    events.on('retry', onRetry);
    return () => events.off('retry', onRetry);
  }

  /** Stops starting requests for `ms` (a longer pause wins over a shorter one). */
  pause(ms: number): void {
    const until = Date.now() + ms;
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.#queue.pause();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#pausedUntil = 0;
      this.#queue.start();
    }, ms);
    this.#timer.unref?.();
    this.onPause?.(ms);
  }

  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  /** Waits for the requests in flight; drops the pause timer. */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#queue.start();
    await this.#queue.onIdle();
  }
}
