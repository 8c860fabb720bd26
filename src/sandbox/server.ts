import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.js';
import { registerAnswerFaults } from './http/answer-faults.js';
import { clientErrorHandler, registerErrorHandling } from './http/errors.js';
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

/** Builds the Fastify app with every route; nothing here listens. */
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
    // Request ids are generated here, never taken from the caller, so a log line cannot be forged.
    requestIdHeader: false,
    // Slow requests get a 408 (Node reads the deadline only at creation, hence `http`).
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
  registerAnswerFaults(app, {
    takeContradiction: () => context.faultBoard.takeContradiction(),
    takeBareAnswer: (where) => context.faultBoard.takeBareAnswer(where),
    payout: (refid) => context.disbursements.records.find((row) => row.refid === refid),
  });
  registerJsonBody(app);
  registerErrorHandling(app);
  registerCollectionRoutes(app, context);
  registerCheckoutRoutes(app, context);
  registerEngineCallback(app, context);
  registerAirtimeRoutes(app, context);
  registerAirtimeBulkRoute(app, context);
  registerDisbursementRoutes(app, context);
  registerControlRoutes(app, context, reset);
  // The engine settles through the callback route itself, as the real engine's HTTP call would.
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
