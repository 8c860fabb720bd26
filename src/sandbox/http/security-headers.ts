import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { checkoutCspDirectives } from '../checkout/page.js';
import { CONTROL_PREFIX } from './control-path.js';

/**
 * Security headers for the hosted checkout page, as @fastify/helmet sets them. The page is an
 * unauthenticated HTML page: its Content-Security-Policy (only its own hashed script and style,
 * talking only to its own origin) with `frame-ancestors 'none'` and `X-Frame-Options: DENY` (no
 * other site can frame it to trick a payer into clicking), `nosniff`, and
 * `Referrer-Policy: no-referrer` (its URL holds the payment token). HSTS is off: the sandbox
 * speaks plain HTTP, and an HSTS header on a shared hostname would outlive it.
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
 * The headers @fastify/helmet sets with {@link helmetOptions}, read once from a throwaway app.
 * Our options hold no nonce and nothing that depends on the request, so they are the same for
 * every answer — while the plugin itself rebuilds helmet's middleware (parsing the CSP again) on
 * every request, which was the largest single cost of a status request (docs/benchmarks.md).
 */
export async function securityHeaders(apiBase: string): Promise<Readonly<Record<string, string>>> {
  const probe = Fastify();
  await probe.register(helmet, helmetOptions(apiBase));
  probe.get('/', (_request, reply) => {
    // Only helmet has written to the raw response at this point.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.raw.getHeaders())) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return reply.send(headers);
  });
  try {
    const response = await probe.inject({ method: 'GET', url: '/' });
    return Object.freeze(response.json<Record<string, string>>());
  } finally {
    await probe.close();
  }
}

/**
 * Security headers on every JSON answer: the set OWASP's REST Security cheat sheet asks of an
 * API. A JSON answer runs no script and loads nothing, so it needs no script or style policy;
 * `default-src 'none'` and `frame-ancestors 'none'` keep a browser from rendering or framing it
 * as a document, `nosniff` from reading it as anything but JSON. Helmet's other headers
 * (`X-DNS-Prefetch-Control`, `X-Download-Options`, `Origin-Agent-Cluster`, ...) concern HTML
 * documents; only the checkout page is one, and it gets the full set
 * ({@link pageSecurityHeaders}). Seven fewer headers per answer was a measurable share of a
 * status request's cost (docs/benchmarks.md).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
});

/** The checkout page's headers ({@link helmetOptions}), read once per sandbox. */
export const pageSecurityHeaders = securityHeaders;

/**
 * The one hook every answer passes through (404s and errors included): it names the request
 * (`x-request-id`, read by the SDK's errors as `requestId`), adds the API security headers
 * unless the route set its own (the checkout page sets helmet's full set, which includes every
 * one of them), and applies the latency fault. One `onSend` hook, synchronous, rather than an
 * `onRequest` hook for the headers and an `onSend` hook for the latency: each hook Fastify runs
 * per request costs a runner of its own (docs/benchmarks.md, stop 15).
 *
 * The latency fault delays every non-control answer after its handler has run, so that a
 * client timeout leaves an outcome that really happened (an ambiguous one, for the SDK).
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
