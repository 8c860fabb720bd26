import { hash, randomBytes } from 'node:crypto';
import type { Product } from '../../core/endpoints.js';

interface StoredToken {
  readonly product: Product;
  readonly accountId: number;
  /** SHA-256 of the secret, base64url: the only trace of the secret that is kept. */
  readonly digest: string;
}

/** Why a bearer token was refused; the message tells the caller what to fix. */
export type TokenProblem = 'missing' | 'malformed' | 'unknown';

export type TokenLookup =
  | { ok: true; accountId: number; tokenId: string }
  | { ok: false; problem: TokenProblem };

/**
 * One call into OpenSSL with a string result: `crypto.hash` skips the Hash object that
 * `createHash().update().digest()` builds, and base64url skips a Buffer (measured in
 * docs/benchmarks.md: this digest runs on every bearer request).
 */
function digestOf(secret: string): string {
  return hash('sha256', secret, 'base64url');
}

/**
 * Compares two digests in time that depends only on their length (always 43 characters here),
 * never on where they first differ. Both are SHA-256 digests, so this guards the stored digest
 * rather than the secret; it stays constant-time all the same.
 */
function sameDigest(offered: string, expected: string): boolean {
  if (offered.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < offered.length; i += 1) {
    difference |= offered.charCodeAt(i) ^ expected.charCodeAt(i);
  }
  return difference === 0;
}

const BEARER = 'Bearer ';
/** The whole header: `Bearer <id>|<secret>`. `test`, not `exec`: no match array per request. */
const TOKEN_SHAPE = /^Bearer [0-9]+\|[A-Za-z0-9_-]{1,200}$/;
/** Compared against when the id is unknown, so that timing says nothing about which ids exist. */
const NO_DIGEST = digestOf('');
const MISSING: TokenLookup = Object.freeze({ ok: false, problem: 'missing' });
const MALFORMED: TokenLookup = Object.freeze({ ok: false, problem: 'malformed' });
const UNKNOWN: TokenLookup = Object.freeze({ ok: false, problem: 'unknown' });

/** Live tokens kept; logging in past it revokes the oldest. */
export const TOKENS_KEPT = 10_000;

/**
 * Personal access tokens in the Laravel Sanctum form `<id>|<secret>`. Only the SHA-256 of the
 * secret is kept; the id finds the row and the digests are compared in constant time. A token is
 * bound to the product that issued it, so an airtime token is unknown to the disbursement API.
 * Nothing is cached between requests: every request is checked against the live table, so a
 * revoked token fails on the very next request.
 */
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

  /** Resolves an `Authorization` header value for one product. */
  lookup(product: Product, authorization: string | undefined): TokenLookup {
    if (authorization === undefined) return MISSING;
    const value = authorization.trim();
    if (value === '') return MISSING;
    if (!TOKEN_SHAPE.test(value)) return MALFORMED;
    const bar = value.indexOf('|', BEARER.length);
    const id = value.slice(BEARER.length, bar);
    const stored = this.#tokens.get(id);
    // Compare even when the id is unknown or belongs to another product, so timing says nothing.
    const same = sameDigest(digestOf(value.slice(bar + 1)), stored?.digest ?? NO_DIGEST);
    if (!stored || !same || stored.product !== product) return UNKNOWN;
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
