import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { checkoutCspDirectives } from '../checkout/page.js';

/**
 * Security headers on every answer, through @fastify/helmet. What matters is the hosted checkout
 * page, an unauthenticated HTML page: its Content-Security-Policy (only its own hashed script and
 * style, talking only to its own origin) with `frame-ancestors 'none'` and `X-Frame-Options:
 * DENY` (no other site can frame it to trick a payer into clicking), `nosniff`, and
 * `Referrer-Policy: no-referrer` (its URL holds the payment token). JSON answers get the same
 * headers; they change nothing for a non-browser client. HSTS is off: the sandbox speaks plain
 * HTTP, and an HSTS header on a shared hostname would outlive it.
 */
export function registerSecurityHeaders(app: FastifyInstance, apiBase: string): void {
  app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...checkoutCspDirectives(apiBase), 'frame-ancestors': ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
