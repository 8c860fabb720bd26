import type { FastifyRequest } from 'fastify';
import type { Product } from '../../schemas/product.js';
import type { ResolvedSandboxOptions } from '../options.js';

/** A login that may go ahead: it counts as failed until `succeeded()` gives the count back. */
export type LoginAttempt = { succeeded(): void };

interface Window {
  count: number;
  endsAt: number;
}

/** Failed-login limits per window, counted before scrypt runs so concurrent guesses cannot slip. */
export class LoginLimits {
  readonly #windows = new Map<string, Window>();

  constructor(
    private readonly settings: ResolvedSandboxOptions['loginLimits'],
    private readonly now: () => number,
  ) {}

  /** Counts this login against its account and address, or says how long it must wait. */
  attempt(
    request: FastifyRequest,
    product: Product,
    email: string,
  ): LoginAttempt | { retryAfterSeconds: number } {
    if (this.settings === false) return { succeeded: () => undefined };
    const { perAccount, perAddress, windowMs } = this.settings;
    const now = this.now();
    if (this.#windows.size > 10_000) this.#forgetEnded(now);
    const address = `address|${request.ip}`;
    const account = `account|${product}|${request.ip}|${email.trim().toLowerCase().slice(0, 320)}`;
    const limits: [string, number][] = [
      [account, perAccount],
      [address, perAddress],
    ];
    let waitMs = 0;
    for (const [key, max] of limits) {
      const window = this.#windows.get(key);
      if (window !== undefined && window.endsAt > now && window.count >= max) {
        waitMs = Math.max(waitMs, window.endsAt - now);
      }
    }
    if (waitMs > 0) return { retryAfterSeconds: Math.ceil(waitMs / 1000) };
    const counted = limits.map(([key]) => this.#count(key, now + windowMs, now));
    return {
      succeeded: () => {
        for (const window of counted) window.count = Math.max(0, window.count - 1);
      },
    };
  }

  #count(key: string, endsAt: number, now: number): Window {
    let window = this.#windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      window = { count: 0, endsAt };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return window;
  }

  #forgetEnded(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.endsAt <= now) this.#windows.delete(key);
    }
  }
}
