import type { FastifyInstance } from 'fastify';
import { CONTROL_PREFIX } from './control-path.js';
import { sendError } from './replies.js';

/**
 * The `rateLimit` fault: the platform's rate limit on demand, answered before any route runs
 * (as a throttle in front of the platform would), so a refused request changed nothing. The
 * control API is never limited: a test must be able to switch the fault off. The message is
 * Laravel's throttle message (the platform is a Laravel app).
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
