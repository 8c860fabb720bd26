import { isIPv4, isIPv6 } from 'node:net';

export interface SourceBudgetLimits {
  callbacksPerMinute: number;
  bytesPerMinute: number;
  totalCallbacksPerMinute: number;
  totalBytesPerMinute: number;
}

/** Tokens that refill evenly up to a minute's worth: a burst of one minute, then the rate. */
class Bucket {
  readonly #perMinute: number;
  #tokens: number;
  #at: number;

  constructor(perMinute: number, now: number) {
    this.#perMinute = perMinute;
    this.#tokens = perMinute;
    this.#at = now;
  }

  /** Ms until `amount` tokens are in (0: now); more than a minute's worth needs a full bucket. */
  waitFor(amount: number, now: number): number {
    this.#refill(now);
    const missing = Math.min(amount, this.#perMinute) - this.#tokens;
    return missing <= 0 ? 0 : Math.ceil((missing * 60_000) / this.#perMinute);
  }

  take(amount: number): void {
    this.#tokens -= amount;
  }

  isFull(now: number): boolean {
    this.#refill(now);
    return this.#tokens >= this.#perMinute;
  }

  #refill(now: number): void {
    const refilled = ((now - this.#at) * this.#perMinute) / 60_000;
    this.#tokens = Math.min(this.#perMinute, this.#tokens + Math.max(0, refilled));
    this.#at = now;
  }
}

interface Buckets {
  callbacks: Bucket;
  bytes: Bucket;
}

/**
 * What callbacks that are not a known open record's may store, in this process: a token bucket
 * per source (an IPv6 source per /64, which one host can hold whole) and one for every source
 * together, each counting callbacks and bytes. A forger cannot fill the disk, nor rotate
 * addresses to get around it; the platform's genuine callbacks never reach it (see callback-intake).
 */
export class SourceBudget {
  readonly #limits: SourceBudgetLimits;
  readonly #sources = new Map<string, Buckets>();
  #total: Buckets | undefined;
  #sweepAt = 10_000;

  constructor(limits: SourceBudgetLimits) {
    this.#limits = limits;
  }

  /** Counts one callback of `bytes` from `source`: 0 if within every budget, else seconds to wait. */
  take(source: string, bytes: number, now: number): number {
    const { callbacksPerMinute, bytesPerMinute, totalCallbacksPerMinute, totalBytesPerMinute } =
      this.#limits;
    this.#total ??= buckets(totalCallbacksPerMinute, totalBytesPerMinute, now);
    const key = sourceKey(source);
    let own = this.#sources.get(key);
    if (own === undefined) {
      own = buckets(callbacksPerMinute, bytesPerMinute, now);
      this.#sources.set(key, own);
      this.#sweep(now);
    }
    const waitMs = Math.max(
      ...[own, this.#total].flatMap((b) => [
        b.callbacks.waitFor(1, now),
        b.bytes.waitFor(bytes, now),
      ]),
    );
    if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
    for (const b of [own, this.#total]) {
      b.callbacks.take(1);
      b.bytes.take(bytes);
    }
    return 0;
  }

  /** Sources whose buckets have refilled are forgotten: a flood of addresses costs one minute. */
  #sweep(now: number): void {
    if (this.#sources.size < this.#sweepAt) return;
    for (const [key, own] of this.#sources) {
      if (own.callbacks.isFull(now) && own.bytes.isFull(now)) this.#sources.delete(key);
    }
    this.#sweepAt = Math.max(10_000, this.#sources.size * 2);
  }
}

function buckets(callbacksPerMinute: number, bytesPerMinute: number, now: number): Buckets {
  return { callbacks: new Bucket(callbacksPerMinute, now), bytes: new Bucket(bytesPerMinute, now) };
}

/**
 * The budget a source address counts against: an IPv4 address (an IPv4-mapped IPv6 one too)
 * itself, an IPv6 address its /64 (`2001:db8:1:2::/64`), anything else as given.
 */
export function sourceKey(source: string): string {
  const address = source.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return source;
  const [head = '', tail] = address.toLowerCase().split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
