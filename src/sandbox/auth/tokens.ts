import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Product } from '../../core/endpoints.js';

interface StoredToken {
  readonly product: Product;
  readonly accountId: number;
  readonly hash: Buffer;
}

/** Why a bearer token was refused; the message tells the caller what to fix. */
export type TokenProblem = 'missing' | 'malformed' | 'unknown';

export type TokenLookup =
  | { ok: true; accountId: number; tokenId: string }
  | { ok: false; problem: TokenProblem };

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Live tokens kept; logging in past it revokes the oldest. */
export const TOKENS_KEPT = 10_000;

/**
 * Personal access tokens in the Laravel Sanctum form `<id>|<secret>`. Only the SHA-256 of the
 * secret is kept; the id finds the row and the hashes are compared in constant time. A token is
 * bound to the product that issued it, so an airtime token is unknown to the disbursement API.
 */
export class TokenRegistry {
  readonly #tokens = new Map<string, StoredToken>();
  #nextId = 1;

  /** Issues a token; the plain value is returned once and never stored. */
  issue(product: Product, accountId: number): string {
    const id = String(this.#nextId++);
    const secret = randomBytes(30).toString('base64url');
    this.#tokens.set(id, { product, accountId, hash: sha256(secret) });
    // Live tokens are capped: the oldest is revoked first (a Map iterates in insertion order).
    if (this.#tokens.size > TOKENS_KEPT) {
      const oldest = this.#tokens.keys().next().value;
      if (oldest !== undefined) this.#tokens.delete(oldest);
    }
    return `${id}|${secret}`;
  }

  /** Resolves an `Authorization` header value for one product. */
  lookup(product: Product, authorization: string | undefined): TokenLookup {
    if (authorization === undefined || authorization.trim() === '') {
      return { ok: false, problem: 'missing' };
    }
    const match = /^Bearer ([0-9]+)\|([A-Za-z0-9_-]{1,200})$/.exec(authorization.trim());
    if (!match) return { ok: false, problem: 'malformed' };
    const [, id, secret] = match as unknown as [string, string, string];
    const stored = this.#tokens.get(id);
    const offered = sha256(secret);
    // Compare even when the id is unknown or belongs to another product, so timing says nothing.
    const expected = stored?.hash ?? sha256('');
    const same = timingSafeEqual(offered, expected);
    if (!stored || !same || stored.product !== product) return { ok: false, problem: 'unknown' };
    return { ok: true, accountId: stored.accountId, tokenId: id };
  }

  /** Revokes one token (logout). */
  revoke(tokenId: string): void {
    this.#tokens.delete(tokenId);
  }

  /** How many live tokens there are, for state snapshots. */
  get size(): number {
    return this.#tokens.size;
  }

  clear(): void {
    this.#tokens.clear();
  }
}
