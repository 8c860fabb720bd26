import type { FastifyInstance } from 'fastify';
import { CONTROL_PREFIX } from './control-path.js';
import { sendError } from './replies.js';

/**
 * The `rateLimit` fault: the platform's rate limit, on demand, so a merchant can watch its
 * client back off (`Retry-After`) against the sandbox instead of a proxy of its own. The limit
 * answers before any route runs — as a throttle in front of the platform would — so a refused
 * request changed nothing and moved no money. The control API is never limited: a test must be
 * able to switch the fault off.
 *
 * Answered with Laravel's throttle message (the platform is a Laravel app: its 422s are
 * Laravel's) and a `code` of our own, as the sandbox's other refusals carry.
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
