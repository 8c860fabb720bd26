import { createHash, createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from '../internal/shared-secret.js';

/** How long a printed sign-in code can be exchanged: long enough to click, short for scrollback. */
export const signInCodeMs = 60_000;

/** @default 12 hours: a working day, so a page left open asks again the next morning. */
export const defaultSessionMs = 12 * 3_600_000;

/** A session the cookie proved: its id ties the page's CSRF token to it. */
export interface Session {
  id: string;
  expiresAt: number;
}

/**
 * One-time sign-in codes and the signed sessions they open. A code lives in this instance's
 * memory only and is spent on first use. A session is `id.expiry.mac`, signed with a key
 * derived from the token: every instance with the same token accepts it, a new token rejects
 * it, and the cookie's value tells nothing about the token or the next session.
 */
export class DashboardSessions {
  /** Codes by their SHA-256: a lookup's timing can only tell about a hash, never a code. */
  readonly #codes = new Map<string, number>();
  readonly #key: Buffer;
  readonly #sessionMs: number;
  readonly #now: () => number;
  #ended = false;

  constructor(token: string, sessionMs: number, now: () => number) {
    this.#key = createHmac('sha256', token).update('pesakit dashboard session key').digest();
    this.#sessionMs = sessionMs;
    this.#now = now;
  }

  get sessionMs(): number {
    return this.#sessionMs;
  }

  /** A fresh code, valid once within `signInCodeMs`. */
  issueCode(): { code: string; expiresAt: Date } {
    const now = this.#now();
    for (const [hash, expiresAt] of this.#codes) if (expiresAt <= now) this.#codes.delete(hash);
    const code = randomBytes(24).toString('base64url');
    const expiresAt = now + signInCodeMs;
    this.#codes.set(digest(code), expiresAt);
    return { code, expiresAt: new Date(expiresAt) };
  }

  /** Spends `code`: a new session's cookie value, or undefined when it is unknown, used or late. */
  redeem(code: unknown): string | undefined {
    if (this.#ended || typeof code !== 'string' || code.length > 256) return undefined;
    const hash = digest(code);
    const expiresAt = this.#codes.get(hash);
    if (expiresAt === undefined) return undefined;
    this.#codes.delete(hash);
    const now = this.#now();
    if (expiresAt <= now) return undefined;
    const id = randomBytes(18).toString('base64url');
    const signed = `${id}.${now + this.#sessionMs}`;
    return `${signed}.${this.#mac(signed)}`;
  }

  /** The session a cookie value proves, if it is signed with this token and not expired. */
  verify(value: string | undefined): Session | undefined {
    if (this.#ended || value === undefined) return undefined;
    const match = /^([A-Za-z0-9_-]{24})\.(\d{13,15})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match) return undefined;
    const [, id, expiry, mac] = match as unknown as [string, string, string, string];
    if (!sameSecret(mac, this.#mac(`${id}.${expiry}`))) return undefined;
    const expiresAt = Number(expiry);
    return expiresAt > this.#now() ? { id, expiresAt } : undefined;
  }

  /** The CSRF token of a session: a page's changes carry it; another session's does not fit. */
  csrfOf(session: Session): string {
    return this.#mac(`csrf:${session.id}`);
  }

  /** No code is redeemed nor session accepted by this instance any more. */
  end(): void {
    this.#ended = true;
    this.#codes.clear();
  }

  #mac(content: string): string {
    return createHmac('sha256', this.#key).update(content).digest('base64url');
  }
}

function digest(code: string): string {
  return createHash('sha256').update(code).digest('base64url');
}
