import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Product } from '../../schemas/product.js';

interface StoredToken {
  readonly product: Product;
  readonly accountId: number;
  readonly digest: Buffer;
}

export type TokenProblem = 'missing' | 'malformed' | 'unknown';

export type TokenLookup =
  | { ok: true; accountId: number; tokenId: string }
  | { ok: false; problem: TokenProblem };

function digestOf(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Compared against when the id is unknown, so that timing says nothing about which ids exist. */
const NO_DIGEST = digestOf('');

/** Live tokens kept; logging in past it revokes the oldest. */
export const TOKENS_KEPT = 10_000;

/** Sanctum-style `<id>|<secret>` tokens: only the secret's SHA-256 kept, checked live per product. */
export class TokenRegistry {
  readonly #tokens = new Map<string, StoredToken>();
  #nextId = 1;

  /** Issues a token; the plain value is returned once and never stored. */
  issue(product: Product, accountId: number): string {
    const id = String(this.#nextId++);
    const secret = randomBytes(30).toString('base64url');
    this.#tokens.set(id, { product, accountId, digest: digestOf(secret) });
    // Live tokens are capped: the oldest is revoked first (a Map iterates in insertion order).
    if (this.#tokens.size > TOKENS_KEPT) {
      const oldest = this.#tokens.keys().next().value;
      if (oldest !== undefined) this.#tokens.delete(oldest);
    }
    return `${id}|${secret}`;
  }

  /** Resolves an `Authorization` header value (`Bearer <id>|<secret>`) for one product. */
  lookup(product: Product, authorization: string | undefined): TokenLookup {
    const value = authorization?.trim() ?? '';
    if (value === '') return { ok: false, problem: 'missing' };
    const match = /^Bearer ([0-9]+)\|([A-Za-z0-9_-]{1,200})$/.exec(value);
    if (!match) return { ok: false, problem: 'malformed' };
    const [, id = '', secret = ''] = match;
    const stored = this.#tokens.get(id);
    // Compare even when the id is unknown or belongs to another product, so timing says nothing.
    const same = timingSafeEqual(digestOf(secret), stored?.digest ?? NO_DIGEST);
    if (!stored || !same || stored.product !== product) return { ok: false, problem: 'unknown' };
    return { ok: true, accountId: stored.accountId, tokenId: id };
  }

  revoke(tokenId: string): void {
    this.#tokens.delete(tokenId);
  }

  get size(): number {
    return this.#tokens.size;
  }
}
