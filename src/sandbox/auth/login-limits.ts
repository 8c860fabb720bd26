import type { FastifyRequest } from 'fastify';
import type { Product } from '../../core/endpoints.js';

/** How many failed logins are allowed per window, per account and per caller address. */
export interface LoginLimitSettings {
  /** Failed logins for one account (product + email) from one address. */
  perAccount: number;
  /** Failed logins from one address, all accounts together (an attacker cycling emails). */
  perAddress: number;
  /** The window, in ms, the counts cover. */
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimitSettings = {
  perAccount: 10,
  perAddress: 50,
  windowMs: 60_000,
};

/** A login that may go ahead: its attempt is counted until it is known to have succeeded. */
export interface LoginAttempt {
  /** The password was right: the attempt no longer counts (only failures do). */
  succeeded(): void;
}

/** A login refused for now, and how long to wait. */
export interface LoginBlock {
  retryAfterSeconds: number;
}

interface Window {
  count: number;
  endsAt: number;
}

/**
 * Failed-login limits over fixed windows. Counted with the check in one synchronous step before
 * scrypt runs, so concurrent guesses cannot slip through; a success gives its count back.
 */
export class LoginLimits {
  readonly #windows = new Map<string, Window>();

  constructor(
    private readonly settings: LoginLimitSettings | false,
    private readonly now: () => number,
  ) {}

  /** Counts this login against its account and address, or says how long it must wait. */
  attempt(request: FastifyRequest, product: Product, email: string): LoginAttempt | LoginBlock {
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
