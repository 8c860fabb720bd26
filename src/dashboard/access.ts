import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { HostGuard } from '../internal/host-guard.js';
import { sameSecret } from '../internal/shared-secret.js';

/** The token given, or 32 random bytes; a short one is guessable, so refused. */
export function dashboardToken(token: string | undefined): string {
  if (token === undefined) return randomBytes(32).toString('base64url');
  if (typeof token !== 'string' || token.length < 16 || /\s/.test(token)) {
    throw new ConfigurationError(
      'token',
      'The dashboard token must be at least 16 characters without spaces; leave it out for a random one.',
    );
  }
  return token;
}

/**
 * Who may see and change what the dashboard shows. The token opens a session cookie (HttpOnly,
 * SameSite=Strict) and is dropped from the address; scripts send it as a bearer token. A page's
 * POST also needs the CSRF token the page carries and its own origin: a cookie alone is ambient.
 */
export class DashboardAccess {
  readonly #token: string;
  readonly #guard: HostGuard;
  readonly #cookie: string;
  readonly #cookieOf: RegExp;
  readonly #session: string;
  /** Bound to the token: a page served before a restart with the same token keeps working. */
  readonly csrf: string;
  constructor(token: string, guard: HostGuard) {
    this.#token = token;
    this.#guard = guard;
    const derive = (what: string) => createHmac('sha256', token).update(what).digest('base64url');
    // Named after the token: cookies ignore ports, so two dashboards on one host keep theirs apart.
    this.#cookie = `pesakit_dashboard_${derive('cookie').slice(0, 8)}`;
    this.#cookieOf = new RegExp(`(?:^|;\\s*)${this.#cookie}=([^;]*)`);
    this.#session = derive('session');
    this.csrf = derive('csrf');
  }

  /** Sends the refusal and returns true when the request may not go on. */
  refuse(request: FastifyRequest, reply: FastifyReply): boolean {
    const { host, origin } = request.headers;
    const foreign = this.#guard.refusal(host, origin);
    if (foreign !== undefined) return deny(reply, 403, foreign);
    const query = request.query as Record<string, unknown>;
    if (request.method === 'GET' && request.url.split('?')[0] === '/' && 'token' in query) {
      if (!sameSecret(query['token'] as string, this.#token)) {
        return deny(reply, 401, 'The token in the address is not this dashboard’s.');
      }
      // The session goes in a cookie; the redirect takes the token out of the address bar.
      const cookie = `${this.#cookie}=${this.#session}; HttpOnly; SameSite=Strict; Path=/`;
      reply.header('set-cookie', cookie).redirect('/', 303);
      return true;
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const byBearer = bearer !== undefined && sameSecret(bearer, this.#token);
    const cookie = this.#cookieOf.exec(request.headers.cookie ?? '')?.[1];
    if (!byBearer && !sameSecret(cookie, this.#session)) {
      return deny(
        reply,
        401,
        'Open the address pesakit dashboard printed (with ?token=), or send Authorization: Bearer <token>.',
      );
    }
    if (request.method === 'GET' || request.method === 'HEAD') return false;
    const site = request.headers['sec-fetch-site'];
    const sameOrigin = origin === undefined ? byBearer : origin === `http://${host}`;
    if (!sameOrigin || site === 'cross-site' || site === 'same-site') {
      return deny(reply, 403, 'Changes are accepted from this dashboard’s own page only.');
    }
    if (!byBearer && !sameSecret(request.headers['x-csrf-token'], this.csrf)) {
      return deny(reply, 403, 'A change from the page needs its x-csrf-token header.');
    }
    return false;
  }
}

function deny(reply: FastifyReply, status: number, message: string): true {
  reply.code(status).send({ message });
  return true;
}
