import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { endpoints, sandboxPrefixes } from '../../core/endpoints.js';
import { resolveProvider } from '../../schemas/provider.js';
import { renderCheckoutPage } from '../checkout/page.js';
import type { SandboxContext } from '../context.js';
import { DECLINED_CARD_SUFFIX } from '../engine/test-numbers.js';
import { merchantReferenceOf } from '../http/merchant-reference.js';
import { parseBody, sendError, sendValidationError } from '../http/replies.js';
import { routePath } from '../http/route-path.js';
import { helmetOptions } from '../http/security-headers.js';
import { newSessionId } from '../references.js';
import { autoSettle } from '../state/open-collection.js';
import { openChecked } from './accept-initiation.js';

const apiBase = sandboxPrefixes.collection;
const checkoutPath = `${apiBase}/checkout/:token`;
const SESSION_LIFETIME_MS = 15 * 60 * 1000;
const SESSIONS_KEPT = 20;

/** The sandbox-only card step: what the card form of the hosted page submits. */
export const cardPaymentSchema = z.object({
  session_id: z
    .string({ error: 'The session_id must be a string.' })
    .min(1, { error: 'The session_id field is required.' }),
  card_number: z
    .string({ error: 'The card_number must be a string.' })
    .regex(/^\d{12,19}$/, { error: 'The card_number must be 12 to 19 digits.' }),
});

export function registerCheckoutRoutes(app: FastifyInstance, context: SandboxContext): void {
  /** The checkout a payment token opens, if it is still payable; otherwise sends the error. */
  const payable = (token: string, reply: FastifyReply, unknownStatus: 401 | 404) => {
    const record = context.collections.findByToken(token);
    if (!record) {
      sendError(reply, unknownStatus, 'The payment token is unknown.');
      return undefined;
    }
    if (record.status !== 'pending') {
      sendError(reply, 409, `This checkout is already ${record.status}.`);
      return undefined;
    }
    return record;
  };
  app.post(routePath(endpoints.initiateSecure), async (request, reply) => {
    const parsed = parseBody(endpoints.initiateSecure.request, request.body, reply);
    if (!parsed) return reply;
    const opening = {
      channel: 'secure' as const,
      ...parsed,
      ownerId: null,
      merchantReference: merchantReferenceOf(request),
    };
    const record = openChecked(context, opening, reply);
    if (!record) return reply;
    const origin = publicOrigin(request, context.selfUrl);
    return {
      message: 'Checkout created; send the customer to payment_url.',
      payment_url: `${origin}${apiBase}/checkout/${record.paymentToken}`,
      external_reference: record.external_reference,
      payment_token: record.paymentToken,
      controlNumber: record.controlNumber,
      reference: record.reference,
      amount: record.amount,
    };
  });
  app.post(routePath(endpoints.checkoutMno), async (request, reply) => {
    const parsed = parseBody(endpoints.checkoutMno.request, request.body, reply);
    if (!parsed) return reply;
    const record = payable(parsed.token, reply, 401);
    if (!record) return reply;
    if (record.msisdn !== null) {
      return sendError(reply, 409, 'A phone payment for this checkout is already in progress.');
    }
    record.msisdn = parsed.msisdn;
    record.provider = resolveProvider(parsed.msisdn) ?? null;
    record.updated_at = context.nowIso();
    context.actedOn({
      product: 'collection',
      operation: 'checkout_mno',
      merchant_reference: merchantReferenceOf(request),
      amount: record.amount,
      msisdn: record.msisdn,
      outcome: record.status,
      reference: record.controlNumber,
    });
    autoSettle(context, record);
    return {
      message: 'Payment request sent to the customer’s phone.',
      status: record.status,
      external_reference: record.external_reference,
      controlNumber: record.controlNumber,
      reference: record.reference,
    };
  });
  app.post(routePath(endpoints.portalSession), async (request, reply) => {
    const parsed = parseBody(endpoints.portalSession.request, request.body, reply);
    if (!parsed) return reply;
    const record = payable(parsed.token, reply, 401);
    if (!record) return reply;
    // A session moves no money, so it may open while a phone payment waits; the latest few are kept.
    const sessions = record.sessions;
    if (sessions.size >= SESSIONS_KEPT) {
      const oldest = sessions.keys().next().value;
      if (oldest !== undefined) sessions.delete(oldest);
    }
    const sessionId = newSessionId();
    const expiresAt = context.now().getTime() + SESSION_LIFETIME_MS;
    sessions.set(sessionId, expiresAt);
    return {
      message: 'Card session opened.',
      session_id: sessionId,
      external_reference: record.external_reference,
      expires_at: new Date(expiresAt).toISOString(),
    };
  });
  app.post(`${checkoutPath}/card`, async (request, reply) => {
    const { token } = request.params as { token: string };
    const record = payable(token, reply, 404);
    if (!record) return reply;
    const parsed = parseBody(cardPaymentSchema, request.body, reply);
    if (!parsed) return reply;
    const expiresAt = record.sessions.get(parsed.session_id);
    if (expiresAt === undefined) {
      return sendValidationError(reply, {
        session_id: ['The session_id is not a card session of this checkout.'],
      });
    }
    if (context.now().getTime() >= expiresAt) {
      return sendValidationError(reply, {
        session_id: [
          `The card session expired at ${new Date(expiresAt).toISOString()}; open a new one with portal-session.`,
        ],
      });
    }
    // One payment at a time: a declined card must not fail a checkout a phone payment may still pay.
    if (record.msisdn !== null) {
      const message =
        'A phone payment for this checkout is waiting for the customer; it decides the checkout, so a card cannot be used now.';
      return sendError(reply, 409, message);
    }
    // One card payment per session: a declined card needs a new session, as a real portal does.
    record.sessions.delete(parsed.session_id);
    const declined = parsed.card_number.endsWith(DECLINED_CARD_SUFFIX);
    // The card network answers at once: settle through the engine callback, as a real one would.
    await context.engine.settle(record, declined ? 'failed' : 'success', 'card');
    context.actedOn({
      product: 'collection',
      operation: 'checkout_card',
      merchant_reference: merchantReferenceOf(request),
      amount: record.amount,
      msisdn: null,
      outcome: record.status,
      reference: record.controlNumber,
    });
    return {
      message: declined ? 'The card was declined.' : 'Card payment accepted.',
      status: record.status,
      external_reference: record.external_reference,
    };
  });
  app.get(`${checkoutPath}/status`, async (request, reply) => {
    const { token } = request.params as { token: string };
    const record = context.collections.findByToken(token);
    if (!record) return sendError(reply, 404, 'The payment token is unknown.');
    const { status, external_reference, callback_url } = record;
    return { status, external_reference, callback_url };
  });
  // The one HTML page: helmet gives it a page's security headers in place of the API's.
  app.register(async (scope) => {
    await scope.register(helmet, helmetOptions(apiBase));
    scope.get(checkoutPath, async (request, reply) => {
      const { token } = request.params as { token: string };
      const record = context.collections.findByToken(token);
      if (!record) return sendError(reply, 404, 'The payment token is unknown.');
      const html = renderCheckoutPage({
        token,
        amount: record.amount,
        externalReference: record.external_reference ?? '',
        ...(record.description !== null ? { description: record.description } : {}),
        callbackUrl: record.callback_url ?? '',
        apiBase,
      });
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    });
  });
}

/** The origin the caller reached the sandbox by (Host), for payment_url; else the listen address. */
function publicOrigin(request: FastifyRequest, fallback: string | undefined): string {
  try {
    const url = new URL(`${request.protocol}://${request.host}`);
    if (url.host !== '' && url.pathname === '/' && url.search === '') return url.origin;
  } catch {}
  return fallback ?? 'http://127.0.0.1';
}
