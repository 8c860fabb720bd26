import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { checkoutCspDirectives } from '../checkout/page.js';
import { CONTROL_PREFIX } from './control-path.js';

/**
 * Security headers for the hosted checkout page, set by @fastify/helmet in the page's own
 * scope. The page is an unauthenticated HTML page: its Content-Security-Policy (only its own
 * hashed script and style, talking only to its own origin) with `frame-ancestors 'none'` and
 * `X-Frame-Options: DENY` (no other site can frame it to trick a payer into clicking),
 * `nosniff`, and `Referrer-Policy: no-referrer` (its URL holds the payment token). HSTS is off:
 * the sandbox speaks plain HTTP, and an HSTS header on a shared hostname would outlive it.
 */
export function helmetOptions(apiBase: string): FastifyHelmetOptions {
  return {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...checkoutCspDirectives(apiBase), 'frame-ancestors': ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
}

/**
 * Security headers on every JSON answer: the set OWASP's REST Security cheat sheet asks of an
 * API. A JSON answer runs no script and loads nothing, so it needs no script or style policy;
 * `default-src 'none'` and `frame-ancestors 'none'` keep a browser from rendering or framing it
 * as a document, `nosniff` from reading it as anything but JSON.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
});

/**
 * What every answer gets (404s and errors included): its request id (`x-request-id`, read by
 * the SDK's errors as `requestId`), the API security headers unless helmet set the page's own,
 * and the latency fault. The fault delays every non-control answer after its handler has run,
 * so that a client timeout leaves an outcome that really happened (an ambiguous one, for the SDK).
 */
export function registerAnswerHook(app: FastifyInstance, latencyMs: () => number): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (!reply.hasHeader('content-security-policy')) reply.headers(API_SECURITY_HEADERS);
    const latency = latencyMs();
    if (latency > 0 && !request.url.startsWith(CONTROL_PREFIX)) {
      setTimeout(() => done(null, payload), latency);
      return;
    }
    done(null, payload);
  });
}
