import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { checkoutCspDirectives } from '../checkout/page.js';
import { CONTROL_PREFIX } from './control-path.js';

/** The checkout page's headers by helmet: its CSP, `DENY` framing, `no-referrer`; no HSTS. */
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

/** OWASP's REST headers for every JSON answer: nothing renders, frames or sniffs it. */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
});

/** `x-request-id`, API headers and the latency fault, applied after the handler ran. */
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
