import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { chaosDecisionOf, registerChaosRequests } from './chaos/request-hooks.js';
import type { SandboxContext } from './context.js';
import { registerAnswerFaults } from './http/answer-faults.js';
import { clientErrorHandler, registerErrorHandling } from './http/errors.js';
import { BODY_LIMIT, registerJsonBody } from './http/json-body.js';
import { sandboxLogSerializers } from './http/log-serializers.js';
import { registerMerchantReferenceHeader } from './http/merchant-reference.js';
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
  const { chaos, faultBoard } = context;
  const lateMs = context.options.chaos?.lateMs ?? 0;
  registerAnswerHook(app, (request) => {
    const fault = chaosDecisionOf(request)?.fault;
    const latency = context.faults.latencyMs ?? 0;
    return {
      delayMs: latency + (fault === 'late_answer' ? lateMs : 0),
      cut: fault === 'cut_after',
    };
  });
  registerMerchantReferenceHeader(app);
  registerRateLimitFault(app, () => faultBoard.takeRateLimit());
  registerChaosRequests(app, chaos);
  // A request chaos drew a lie or a bare answer for takes it; any other uses up a counted one.
  registerAnswerFaults(app, {
    takeContradiction(request) {
      const drawn = chaosDecisionOf(request);
      if (drawn?.field !== undefined) {
        return {
          field: drawn.field,
          in: drawn.fault === 'contradict_history' ? 'history' : 'answer',
        };
      }
      return faultBoard.takeContradiction();
    },
    takeBareAnswer(where, request) {
      if (chaosDecisionOf(request)?.fault === 'bare_answer') return true;
      return faultBoard.takeBareAnswer(where);
    },
    get historyLies() {
      return context.historyLies;
    },
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
