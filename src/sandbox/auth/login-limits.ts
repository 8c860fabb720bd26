import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** What a login must wait for, or `undefined` when it may go ahead. */
export interface LoginBlock {
  retryAfterSeconds: number;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Failed-login limits, counted by @fastify/rate-limit. Only failures count (a merchant's test
 * suite may log in as often as it likes); once an account or an address has used up its
 * failures, further logins are answered 429 with `Retry-After` *before* any password is hashed,
 * so guessing costs the sandbox nothing and real logins stay fast.
 */
export class LoginLimits {
  #perAccount: Limiter | undefined;
  #perAddress: Limiter | undefined;

  constructor(private readonly settings: LoginLimitSettings | false) {}

  /** Registers the plugin (routes are not limited globally) and builds the two limiters. */
  register(app: FastifyInstance): void {
    if (this.settings === false) return;
    const { perAccount, perAddress, windowMs } = this.settings;
    app.register(rateLimit, { global: false });
    app.after(() => {
      this.#perAccount = app.createRateLimit({
        max: perAccount,
        timeWindow: windowMs,
        keyGenerator: (request) => `login-account|${accountKey(request)}`,
      });
      this.#perAddress = app.createRateLimit({
        max: perAddress,
        timeWindow: windowMs,
        keyGenerator: (request) => `login-address|${request.ip}`,
      });
    });
  }

  /** Whether this login is refused for now; counts nothing. */
  async blocked(request: FastifyRequest, product: Product): Promise<LoginBlock | undefined> {
    let wait = 0;
    for (const limiter of this.#limiters()) {
      const state = await limiter(withProduct(request, product), { increment: false });
      if (!state.isAllowed && state.remaining === 0 && state.ttl > 0) {
        wait = Math.max(wait, state.ttlInSeconds);
      }
    }
    return wait > 0 ? { retryAfterSeconds: wait } : undefined;
  }

  /** Counts one failed login against the account and the address. */
  async failed(request: FastifyRequest, product: Product): Promise<void> {
    for (const limiter of this.#limiters()) await limiter(withProduct(request, product));
  }

  #limiters(): Limiter[] {
    return this.#perAccount && this.#perAddress ? [this.#perAccount, this.#perAddress] : [];
  }
}

// The key generator sees only the request; the product travels with it in this symbol.
const productKey = Symbol('pesakit.loginProduct');

function withProduct(request: FastifyRequest, product: Product): FastifyRequest {
  (request as unknown as Record<symbol, Product>)[productKey] = product;
  return request;
}

function accountKey(request: FastifyRequest): string {
  const product = (request as unknown as Record<symbol, Product | undefined>)[productKey];
  const body = request.body as { email?: unknown } | undefined;
  const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
  return `${product ?? ''}|${request.ip}|${email.slice(0, 320)}`;
}
