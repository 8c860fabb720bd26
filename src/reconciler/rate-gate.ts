import type { EventEmitter } from 'eventemitter3';
import PQueue from 'p-queue';
import { type EndpointId, endpoints } from '../core/endpoints.js';
import type { TransportEvents } from '../core/transport-events.js';
import { isRateLimitError } from '../errors/rate-limit-error.js';
import { LeasedTokens } from '../references/rate-limit/leased-tokens.js';
import type { SharedRateLimit } from '../references/rate-limit/types.js';
import type { Product } from '../schemas/product.js';
import { type LeaseMargin, LeaseMarginSpent } from './lease-margin.js';

export interface RateGateOptions {
  concurrency: number;
  ratePerSecond: number;
  /** The store's shared buckets, and the key of each product's merchant account among them. */
  rateLimit: SharedRateLimit;
  key: (product: Product) => string;
  now?: () => number;
  /** The pause could not be written to the store (this gate pauses all the same). */
  onError?: (error: unknown) => void;
}

/**
 * Every reconciler request goes through one gate: bounded concurrency, and a token from its
 * merchant account's bucket in the store — shared with every other reconciler and receiver of
 * the account — per request. A 429 pauses the bucket, so every process pauses. A request leaves
 * only before its lease margin; a pause that outlasts a request in flight aborts it.
 */
export class RateGate {
  readonly #queue: PQueue;
  readonly #options: RateGateOptions;
  /** One lease of tokens per bucket: products logged in with one email share it. */
  readonly #tokens = new Map<string, LeasedTokens>();
  onPause: ((ms: number) => void) | undefined;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  // The margins of the requests out, with how many use each.
  readonly #started = new Map<LeaseMargin, number>();

  constructor(options: RateGateOptions) {
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
    this.#queue = new PQueue({ concurrency: options.concurrency });
    this.#options = options;
  }

  #tokensOf(product: Product): LeasedTokens {
    const key = this.#options.key(product);
    let tokens = this.#tokens.get(key);
    if (tokens === undefined) {
      tokens = new LeasedTokens({
        rateLimit: this.#options.rateLimit,
        key,
        ratePerSecond: this.#options.ratePerSecond,
        concurrency: this.#options.concurrency,
        onPause: (ms) => this.#paused(ms),
      });
      this.#tokens.set(key, tokens);
    }
    return tokens;
  }

  /** Runs `request` under the limits (a 429 retries, 5 times at most); past `margin`, LeaseMarginSpent. */
  async run<T>(
    product: Product,
    request: (signal?: AbortSignal) => Promise<T>,
    margin?: LeaseMargin,
  ): Promise<T> {
    const tokens = this.#tokensOf(product);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return (await this.#queue.add(() => this.#watch(tokens, request, margin))) as T;
      } catch (error) {
        if (!isRateLimitError(error) || attempt >= 5) throw error;
      }
    }
  }

  async #watch<T>(
    tokens: LeasedTokens,
    request: (signal?: AbortSignal) => Promise<T>,
    margin: LeaseMargin | undefined,
  ): Promise<T> {
    const spent = () => margin !== undefined && (margin.aborted || this.#now() >= margin.until);
    // No token is taken for a request already too late; the token may make it late (a pause).
    if (spent()) throw new LeaseMarginSpent();
    await tokens.acquire();
    // The moment the request leaves the gate: the last moment to decide not to send it.
    if (spent()) throw new LeaseMarginSpent();
    if (margin) this.#started.set(margin, (this.#started.get(margin) ?? 0) + 1);
    try {
      return await request(margin?.signal);
    } catch (error) {
      if (isRateLimitError(error)) this.#pauseTokens(tokens, error.retryAfterMs ?? 1000);
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
      // The one upload endpoint (the airtime bulk file) is not in the table.
      const product = endpoints[event.endpoint as EndpointId]?.product ?? 'airtime';
      if (event.status === 429) this.pause(product, event.delayMs);
    };
    events.on('retry', onRetry);
    return () => events.off('retry', onRetry);
  }

  /** The platform answered 429: pauses every process of `product`'s merchant account for `ms`. */
  pause(product: Product, ms: number): void {
    this.#pauseTokens(this.#tokensOf(product), ms);
  }

  #pauseTokens(tokens: LeasedTokens, ms: number): void {
    tokens.pause(ms).catch(this.#onError);
  }

  /** Any pause, this process's or one another process wrote: a request whose margin ends first is aborted, never late. */
  #paused(ms: number): void {
    const endsAt = this.#now() + ms;
    for (const margin of this.#started.keys()) {
      if (margin.until <= endsAt) margin.abort();
    }
    this.onPause?.(ms);
  }

  /** Waits for the requests in flight. */
  async close(): Promise<void> {
    await this.#queue.onIdle();
  }
}
