import type { FastifyInstance, FastifyReply } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import { CONTROL_PREFIX } from './control-path.js';
import { sendError } from './replies.js';
import { routePath } from './route-path.js';

const engineCallbackRoute = routePath(endpoints.engineCallback);

/** The platform's 429, as the `rateLimit` fault and chaos's `rate_limit` send it. */
export function sendRateLimited(reply: FastifyReply, retryAfterSeconds: number) {
  reply.header('retry-after', String(retryAfterSeconds));
  return sendError(reply, 429, 'Too Many Attempts.', 'rate_limited');
}

/**
 * The `rateLimit` fault: a 429 before any route runs, for merchant traffic only. The control API
 * and the engine's own settlement call (the callback route) are never limited: a limited engine
 * would leave every collection pending for as long as the fault is on.
 */
export function registerRateLimitFault(app: FastifyInstance, take: () => number | undefined): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (
      request.url.startsWith(CONTROL_PREFIX) ||
      request.routeOptions.url === engineCallbackRoute
    ) {
      done();
      return;
    }
    const retryAfterSeconds = take();
    if (retryAfterSeconds === undefined) {
      done();
      return;
    }
    sendRateLimited(reply, retryAfterSeconds);
  });
}
