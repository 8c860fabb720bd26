import type { EventEmitter } from 'eventemitter3';
import PQueue from 'p-queue';
import type { TransportEvents } from '../core/transport-events.js';
import { isRateLimitError } from '../errors/rate-limit-error.js';
import { type LeaseMargin, LeaseMarginSpent } from './lease-margin.js';

/**
 * One p-queue for every reconciler request: bounded concurrency, a per-second cap; a 429 pauses
 * all of it. A request leaves only before its lease margin; a longer pause aborts it.
 */
export class RateGate {
  readonly #queue: PQueue;
  #pausedUntil = 0;
  #timer: NodeJS.Timeout | undefined;
  onPause: ((ms: number) => void) | undefined;
  readonly #now: () => number;
  // The margins of the requests out, with how many use each.
  readonly #started = new Map<LeaseMargin, number>();

  constructor(options: { concurrency: number; ratePerSecond: number; now?: () => number }) {
    this.#now = options.now ?? Date.now;
    // A fractional rate (0.5/s) becomes one request per 2 s.
    const intervalCap = Math.max(1, Math.floor(options.ratePerSecond));
    const interval = Math.round((1000 * intervalCap) / options.ratePerSecond);
    this.#queue = new PQueue({ concurrency: options.concurrency, intervalCap, interval });
  }

  /** Runs `request` under the limits (a 429 retries, 5 times at most); past `margin`, LeaseMarginSpent. */
  async run<T>(request: (signal?: AbortSignal) => Promise<T>, margin?: LeaseMargin): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return (await this.#queue.add(() => this.#watch(request, margin))) as T;
      } catch (error) {
        if (!isRateLimitError(error) || attempt >= 5) throw error;
      }
    }
  }

  /** Pauses inside the queued task, so the queue stops before it starts the next one. */
  async #watch<T>(
    request: (signal?: AbortSignal) => Promise<T>,
    margin: LeaseMargin | undefined,
  ): Promise<T> {
    // The moment the request leaves the gate: the last moment to decide not to send it.
    if (margin && (margin.aborted || this.#now() >= margin.until)) throw new LeaseMarginSpent();
    if (margin) this.#started.set(margin, (this.#started.get(margin) ?? 0) + 1);
    try {
      return await request(margin?.signal);
    } catch (error) {
      if (isRateLimitError(error)) this.pause(error.retryAfterMs ?? 1000);
      if (margin?.aborted) throw new LeaseMarginSpent();
      throw error;
    } finally {
      const left = margin ? (this.#started.get(margin) ?? 1) - 1 : 0;
      if (margin && left === 0) this.#started.delete(margin);
      else if (margin) this.#started.set(margin, left);
    }
  }

  /** Pauses at any client call's first retried 429 (the limit is the merchant's); returns the unsubscribe. */
  watchRetries(events: EventEmitter<TransportEvents>): () => void {
    const onRetry = (event: TransportEvents['retry'][0]) => {
      if (event.status === 429) this.pause(event.delayMs);
    };
    events.on('retry', onRetry);
    return () => events.off('retry', onRetry);
  }

  /** Pauses for `ms` (longer wins); a request whose margin ends first is aborted, never late. */
  pause(ms: number): void {
    const endsAt = this.#now() + ms;
    for (const margin of this.#started.keys()) {
      if (margin.until <= endsAt) margin.abort();
    }
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
