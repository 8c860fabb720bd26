import type { FastifyInstance } from 'fastify';
import { CONTROL_PREFIX } from './control-path.js';
import { sendError } from './replies.js';

/** The `rateLimit` fault: a 429 before any route runs; the control API is never limited. */
export function registerRateLimitFault(app: FastifyInstance, take: () => number | undefined): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith(CONTROL_PREFIX)) {
      done();
      return;
    }
    const retryAfterSeconds = take();
    if (retryAfterSeconds === undefined) {
      done();
      return;
    }
    reply.header('retry-after', String(retryAfterSeconds));
    sendError(reply, 429, 'Too Many Attempts.', 'rate_limited');
  });
}
