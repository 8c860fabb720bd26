import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONTROL_PREFIX } from '../http/control-path.js';
import { merchantReferenceOf } from '../http/merchant-reference.js';
import { sendRateLimited } from '../http/rate-limit-fault.js';
import { sendError } from '../http/replies.js';
import type { Chaos, RequestDecision } from './chaos.js';
import { faultsForRoute } from './routes.js';

/** Sent with every answer chaos made up: an injected 5xx is never mistaken for a sandbox bug. */
export const INJECTED_FAULT_HEADER = 'x-pesakit-injected-fault';

const decisions = new WeakMap<FastifyRequest, RequestDecision>();

/** What chaos drew for this request, if anything (the answer and latency hooks read it). */
export function chaosDecisionOf(request: FastifyRequest): RequestDecision | undefined {
  return decisions.get(request);
}

/** The reference a request is known by: the SDK's header, else a status pull's `ref_id`. */
function referenceOf(request: FastifyRequest): string {
  const header = merchantReferenceOf(request);
  if (header !== null) return header;
  const refId = (request.body as { ref_id?: unknown } | null | undefined)?.ref_id;
  return typeof refId === 'string' ? refId.slice(0, 64) : '';
}

/**
 * Draws once per merchant request, after its body is read and before its route runs; acts on the
 * faults that strike before acting (a 5xx, a cut, a 429). The others are left for the answer.
 */
export function registerChaosRequests(app: FastifyInstance, chaos: Chaos): void {
  if (!chaos.enabled) return;
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith(CONTROL_PREFIX)) return;
    const route = request.routeOptions.url;
    const applicable = faultsForRoute(route);
    if (applicable === undefined) return;
    const decision = chaos.decideRequest(
      `${request.method} ${route}`,
      referenceOf(request),
      applicable,
    );
    if (decision === undefined) return;
    decisions.set(request, decision);
    if (decision.fault === 'rate_limit') {
      reply.header(INJECTED_FAULT_HEADER, decision.fault);
      return sendRateLimited(reply, 1);
    }
    if (decision.fault === 'error_before') {
      reply.header(INJECTED_FAULT_HEADER, decision.fault);
      return sendError(
        reply,
        503,
        'Injected by chaos mode: the platform failed before acting on this request; nothing happened.',
        'injected_fault',
      );
    }
    if (decision.fault === 'cut_before') {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
  });
}
