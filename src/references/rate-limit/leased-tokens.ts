import { setTimeout as sleep } from 'node:timers/promises';
import { maxPauseMs, maxRatePerSecond } from './checked-rate-limit.js';
import type { SharedRateLimit } from './types.js';

export interface LeasedTokensOptions {
  rateLimit: SharedRateLimit;
  /** The merchant account's bucket (`merchantKey`). */
  key: string;
  ratePerSecond: number;
  /** Told of every pause, this process's 429s and other processes' alike. */
  onPause?: (ms: number) => void;
  /**
   * The most requests the taker sends at once: it never takes more at a time, so that at a rate
   * far above what it can use, a batch it cannot spend does not keep the others waiting.
   */
  concurrency?: number;
}

/**
 * This process's side of the shared rate limit: tokens are taken from the store a batch at a
 * time — a tenth of a second of requests at the rate (2 at 20/s), so the store sees about ten
 * writes a second however many processes share the bucket — and spent here, one per request.
 * A batch is good only for that tenth of a second, so tokens leased and not spent soon are
 * dropped, never hoarded: every process together stays within the rate plus one batch. A batch
 * is never more than the taker can send at once (its `concurrency`).
 */
export class LeasedTokens {
  readonly #rateLimit: SharedRateLimit;
  readonly #key: string;
  readonly #rate: number;
  readonly #batch: number;
  readonly #leaseMs: number;
  readonly #onPause: ((ms: number) => void) | undefined;
  #held = 0;
  /** When the tokens held lapse, and when a known pause ends (`performance.now()`). */
  #heldUntil = 0;
  #pausedUntil = 0;
  /** The end of the latest pause known to be in the store, by the store's clock. */
  #storePause = 0;
  /** The take in flight: concurrent requests wait for one take rather than each making one. */
  #taking: Promise<void> | undefined;

  constructor(options: LeasedTokensOptions) {
    this.#rateLimit = options.rateLimit;
    this.#key = options.key;
    this.#rate = Math.min(options.ratePerSecond, maxRatePerSecond);
    const tenth = Math.max(1, Math.ceil(this.#rate / 10));
    this.#batch = Math.min(tenth, Math.max(1, options.concurrency ?? tenth));
    this.#leaseMs = (1000 * tenth) / this.#rate;
    this.#onPause = options.onPause;
  }

  /** Resolves when one request may be sent: a token spent, a pause waited out. */
  async acquire(): Promise<void> {
    for (;;) {
      const now = performance.now();
      if (now < this.#pausedUntil) {
        await sleep(this.#pausedUntil - now);
      } else if (this.#held > 0 && now < this.#heldUntil) {
        this.#held -= 1;
        return;
      } else {
        this.#held = 0;
        this.#taking ??= this.#take().finally(() => {
          this.#taking = undefined;
        });
        await this.#taking;
      }
    }
  }

  /**
   * The platform answered 429: this process stops at once (its leased tokens dropped), and the
   * pause is written to the store, where every other process's next take finds it. Rejects
   * when the store could not record it (this process pauses all the same).
   */
  async pause(ms: number): Promise<void> {
    const pauseMs = Math.min(Math.max(1, Math.ceil(ms)), maxPauseMs);
    this.#pauseHere(pauseMs, true);
    const { pausedUntil } = await this.#rateLimit.pause(this.#key, pauseMs);
    this.#storePause = Math.max(this.#storePause, pausedUntil.getTime());
  }

  async #take(): Promise<void> {
    const want = this.#batch;
    const grant = await this.#rateLimit.take(this.#key, {
      ratePerSecond: this.#rate,
      burst: want,
      want,
    });
    if (grant.granted > 0) {
      this.#held = grant.granted;
      this.#heldUntil = performance.now() + this.#leaseMs;
      return;
    }
    // Another process met a 429: this one pauses as if it had met it itself. A pause it wrote
    // itself, or learned before, is waited out without being announced again.
    if (grant.pausedUntil !== null) {
      const until = grant.pausedUntil.getTime();
      this.#pauseHere(grant.waitMs, until > this.#storePause);
      this.#storePause = Math.max(this.#storePause, until);
      return;
    }
    // A millisecond over: a timer may fire a little early, and then finds part of a batch.
    await sleep(grant.waitMs + 1);
  }

  #pauseHere(ms: number, announce: boolean): void {
    this.#held = 0;
    const until = performance.now() + ms;
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    if (announce) this.#onPause?.(ms);
  }
}
