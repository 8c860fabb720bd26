import type { FastifyInstance } from 'fastify';
import { CONTROL_PREFIX } from './control-path.js';
import { sendError } from './replies.js';

/**
 * The `rateLimit` fault: Laravel's throttle answer before any route runs, so a refused request
 * changed nothing. The control API is never limited, so a test can switch the fault off.
 */
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
