import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { payloadFromQuery } from '../../callbacks/callback-intake.js';
import { endpoints } from '../../core/endpoints.js';
import { sameSecret } from '../../internal/shared-secret.js';
import type { MerchantCallback } from '../../schemas/collection.js';
import type { SandboxContext } from '../context.js';
import { parseBody, sendError } from '../http/replies.js';
import { routePath } from '../http/route-path.js';

/** The engine's callback, GET or POST: a transaction leaves pending once, then the merchant hears. */
export function registerEngineCallback(app: FastifyInstance, context: SandboxContext): void {
  const path = routePath(endpoints.engineCallback);
  const handle = (payload: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const key = context.options.engineKey;
    if (key !== undefined && !sameSecret(request.headers['x-engine-key'], key)) {
      return sendError(reply, 401, 'Unauthenticated: the x-engine-key is missing or not valid.');
    }
    const callback = parseBody(endpoints.engineCallback.request, payload, reply);
    if (!callback) return reply;
    const record = context.collections.findByPaymentReference(callback.data.paymentReference);
    if (!record) {
      return sendError(reply, 404, 'No transaction has this paymentReference.');
    }
    if (record.status !== 'pending') {
      return {
        message: `Already ${record.status}; this callback changed nothing.`,
        status: record.status,
        reference: record.reference,
        duplicate: true,
      };
    }
    // Ours (the spec shows none): `true` → success, else failed; the paid amount kept as reported.
    record.status = callback.status ? 'success' : 'failed';
    record.transactionID = callback.data.transactionID;
    record.paid_amount = callback.data.amount;
    // Card payers have no phone; the engine's placeholder payer is not worth keeping.
    if (record.msisdn === null && callback.data.providerType !== 'CARD') {
      record.msisdn = callback.data.payerMobile;
    }
    record.updated_at = context.nowIso();
    if (record.callback_url !== null) {
      const payload: MerchantCallback = {
        ...callback,
        controlNumber: record.controlNumber,
        external_reference: record.external_reference,
      };
      const key = callback.data.paymentReference;
      context.dispatcher.enqueue({
        url: record.callback_url,
        payload,
        key,
        kind: 'collection.settled',
      });
    }
    return {
      message: `Transaction ${record.status}.`,
      status: record.status,
      reference: record.reference,
      duplicate: false,
    };
  };
  app.post(path, async (request, reply) => handle(request.body, request, reply));
  // GET carries the body's fields in the query (`data[amount]=…` or `data.amount=…`).
  app.get(path, async (request, reply) => {
    const query = new URL(request.url, 'http://sandbox').searchParams;
    return handle(payloadFromQuery(query), request, reply);
  });
}
