import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** How one answer leaves: held `delayMs` first, or never (the connection cut after acting). */
export interface AnswerTiming {
  delayMs: number;
  cut: boolean;
}

/**
 * `x-request-id`, API headers and the latency faults, applied after the handler ran: a late or
 * cut answer is one the platform acted on (an ambiguous outcome for the client).
 */
export function registerAnswerHook(
  app: FastifyInstance,
  timing: (request: FastifyRequest) => AnswerTiming,
): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (!reply.hasHeader('content-security-policy')) reply.headers(API_SECURITY_HEADERS);
    if (request.url.startsWith(CONTROL_PREFIX)) {
      done(null, payload);
      return;
    }
    const { delayMs, cut } = timing(request);
    const send = () => {
      if (cut) request.raw.socket?.destroy();
      done(null, payload);
    };
    // Unref'd: a held answer must not keep a closed sandbox's process alive.
    if (delayMs > 0) setTimeout(send, delayMs).unref();
    else send();
  });
}
