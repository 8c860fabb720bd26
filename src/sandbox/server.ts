import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.js';
import { clientErrorHandler } from './http/client-errors.js';
import { registerErrorHandling } from './http/errors.js';
import { BODY_LIMIT, registerJsonBody } from './http/json-body.js';
import { sandboxLogSerializers } from './http/log-serializers.js';
import { registerRateLimitFault } from './http/rate-limit-fault.js';
import { registerAnswerHook } from './http/security-headers.js';
import { registerAirtimeRoutes } from './routes/airtime.js';
import { registerAirtimeBulkRoute } from './routes/airtime-bulk.js';
import { registerCheckoutRoutes } from './routes/checkout.js';
import { registerCollectionRoutes } from './routes/collection.js';
import { registerControlRoutes } from './routes/control.js';
import { registerDisbursementRoutes } from './routes/disbursement.js';
import { registerEngineCallback } from './routes/engine-callback.js';

/**
 * Builds the Fastify app: JSON-only bodies up to 1 MiB, Laravel-style errors, every route of
 * the three products, the hosted checkout and the control API. Nothing here listens.
 */
export function buildSandboxApp(
  context: SandboxContext,
  reset: () => Promise<void>,
): FastifyInstance {
  const app = Fastify({
    logger: context.options.logger
      ? {
          redact: [
            'req.headers.authorization',
            'req.headers["x-control-key"]',
            'req.headers["x-engine-key"]',
            'req.headers["x-api-key"]',
            'req.headers.cookie',
          ],
          serializers: sandboxLogSerializers,
        }
      : false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A slow merchant callback must not hold `close()` hostage; the dispatcher cancels its own.
    forceCloseConnections: true,
    // Every answer names its request (x-request-id, read by the SDK's errors as `requestId`).
    // Generated here, never taken from the caller: a log line must not be forgeable.
    requestIdHeader: false,
    // A request must arrive whole within requestTimeoutMs (a slow body is answered 408 and
    // closed), and an idle connection is closed after two minutes — longer than the largest
    // latency fault, so a delayed answer is never cut off. Node reads the request deadline only
    // when the server is created (hence `http` too) and checks it every
    // connectionsCheckingInterval, by default only every 30 s.
    requestTimeout: context.options.requestTimeoutMs,
    connectionTimeout: 120_000,
    clientErrorHandler,
    http: {
      requestTimeout: context.options.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(
        25,
        Math.min(1000, Math.floor(context.options.requestTimeoutMs / 4)),
      ),
    },
    genReqId: () => `req_${randomUUID()}`,
  });
  registerAnswerHook(app, () => context.faults.latencyMs ?? 0);
  registerRateLimitFault(app, () => context.faultBoard.takeRateLimit());
  registerJsonBody(app);
  registerErrorHandling(app);

  registerCollectionRoutes(app, context);
  registerCheckoutRoutes(app, context);
  registerEngineCallback(app, context);
  registerAirtimeRoutes(app, context);
  registerAirtimeBulkRoute(app, context);
  registerDisbursementRoutes(app, context);
  registerControlRoutes(app, context, reset);

  // The engine settles through the callback route itself, as the real engine's HTTP call would:
  // the same validation, once-only update and merchant notification.
  context.connectEngine(async (payload) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/sandbox/callback',
      headers: {
        'content-type': 'application/json',
        ...(context.options.engineKey === undefined
          ? {}
          : { 'x-engine-key': context.options.engineKey }),
      },
      payload: JSON.stringify(payload),
    });
    return { statusCode: response.statusCode, body: response.json() };
  });
  return app;
}
