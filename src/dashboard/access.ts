import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { HostGuard } from '../internal/host-guard.js';
import { sameSecret } from '../internal/shared-secret.js';
import type { DashboardSessions, Session } from './sessions.js';

/**
 * The token given, or 32 random bytes. A short one is guessable, so refused; beyond loopback
 * anyone on the network can try, so it must be at least 32 characters and not a pattern.
 */
export function dashboardToken(token: string | undefined, exposed: boolean): string {
  if (token === undefined) return randomBytes(32).toString('base64url');
  const min = exposed ? 32 : 16;
  if (typeof token !== 'string' || token.length < min || /\s/.test(token)) {
    throw new ConfigurationError(
      'token',
      exposed
        ? 'The dashboard token must be at least 32 random characters without spaces when it listens beyond loopback (e.g. openssl rand -base64 32); leave it out for a random one.'
        : 'The dashboard token must be at least 16 characters without spaces; leave it out for a random one.',
    );
  }
  // A word repeated to length is long but not random: count the characters it is made of.
  if (exposed && new Set(token).size < 10) {
    throw new ConfigurationError(
      'token',
      'The dashboard token must be random when it listens beyond loopback: this one repeats fewer than 10 different characters (e.g. openssl rand -base64 32).',
    );
  }
  return token;
}

/** How the request reached the page: https when a TLS proxy in front says so. */
export function schemeOf(request: FastifyRequest): 'http' | 'https' {
  return request.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
}

/**
 * Who may see and change what the dashboard shows. A one-time code opens a session cookie
 * (HttpOnly, SameSite=Strict, Secure over https); scripts send the token as a bearer token. A
 * page's POST also needs its session's CSRF token and its own origin: a cookie alone is ambient.
 */
export class DashboardAccess {
  readonly #token: string;
  readonly #guard: HostGuard;
  readonly #sessions: DashboardSessions;
  readonly #cookie: string;
  readonly #cookieOf: RegExp;
  constructor(token: string, guard: HostGuard, sessions: DashboardSessions) {
    this.#token = token;
    this.#guard = guard;
    this.#sessions = sessions;
    // Named after the token: cookies ignore ports, so two dashboards on one host keep theirs apart.
    const name = createHmac('sha256', token).update('cookie').digest('base64url').slice(0, 8);
    this.#cookie = `pesakit_dashboard_${name}`;
    this.#cookieOf = new RegExp(`(?:^|;\\s*)${this.#cookie}=([^;]*)`);
  }

  /** The session the request's cookie proves, if any. */
  sessionOf(request: FastifyRequest): Session | undefined {
    return this.#sessions.verify(this.#cookieOf.exec(request.headers.cookie ?? '')?.[1]);
  }

  /** Whether the request carries the token itself (a script). */
  byBearer(request: FastifyRequest): boolean {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    return bearer !== undefined && sameSecret(bearer, this.#token);
  }

  /** Sends the refusal and returns true when the request may not go on. */
  refuse(request: FastifyRequest, reply: FastifyReply): boolean {
    const { host, origin } = request.headers;
    const foreign = this.#guard.refusal(host, origin);
    if (foreign !== undefined) return deny(reply, 403, foreign);
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && path === '/sign-in') return this.#signIn(request, reply);
    const byBearer = this.byBearer(request);
    const session = byBearer ? undefined : this.sessionOf(request);
    if (!byBearer && session === undefined) {
      return deny(
        reply,
        401,
        'Sign in with a one-time address from the terminal (pesakit dashboard prints one; press Enter there or run pesakit dashboard --sign-in for another), or send Authorization: Bearer <token>.',
      );
    }
    if (request.method === 'GET' || request.method === 'HEAD') return false;
    const site = request.headers['sec-fetch-site'];
    const sameOrigin =
      origin === undefined ? byBearer : origin === `${schemeOf(request)}://${host}`;
    if (!sameOrigin || site === 'cross-site' || site === 'same-site') {
      return deny(reply, 403, 'Changes are accepted from this dashboard’s own page only.');
    }
    if (session && !sameSecret(request.headers['x-csrf-token'], this.#sessions.csrfOf(session))) {
      return deny(reply, 403, 'A change from the page needs its x-csrf-token header.');
    }
    return false;
  }

  /** The code is spent here, first use only; the redirect drops it from the address bar. */
  #signIn(request: FastifyRequest, reply: FastifyReply): true {
    const { code } = request.query as Record<string, unknown>;
    const value = this.#sessions.redeem(code);
    if (value === undefined) {
      return deny(
        reply,
        401,
        'This sign-in code is spent, older than 60 seconds, or another dashboard’s: ask for a new one (press Enter where pesakit dashboard runs, or pesakit dashboard --sign-in).',
      );
    }
    const seconds = Math.floor(this.#sessions.sessionMs / 1000);
    const secure = schemeOf(request) === 'https' ? '; Secure' : '';
    const cookie = `${this.#cookie}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${seconds}${secure}`;
    reply.header('set-cookie', cookie).redirect('/', 303);
    return true;
  }
}

function deny(reply: FastifyReply, status: number, message: string): true {
  reply.code(status).send({ message });
  return true;
}
