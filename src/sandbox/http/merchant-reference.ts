import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MERCHANT_REFERENCE_HEADER } from '../../core/call-description.js';
import { merchantReferencePattern } from '../../resources/merchant-reference.js';
import { CONTROL_PREFIX } from './control-path.js';
import { sendValidationError } from './replies.js';

export { MERCHANT_REFERENCE_HEADER };

const references = new WeakMap<FastifyRequest, string>();

/** The request's merchant reference, when the caller sent one; `null` otherwise. */
export function merchantReferenceOf(request: FastifyRequest): string | null {
  return references.get(request) ?? null;
}

/** Reads the header before any route runs; a malformed one is a 422 naming it, nothing done. */
export function registerMerchantReferenceHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(CONTROL_PREFIX)) return;
    const value = request.headers[MERCHANT_REFERENCE_HEADER];
    if (value === undefined) return;
    if (typeof value !== 'string' || !merchantReferencePattern.test(value)) {
      return sendValidationError(reply, {
        [MERCHANT_REFERENCE_HEADER]: [
          `The ${MERCHANT_REFERENCE_HEADER} header must be sent once, as 1–64 letters, digits, or _ - : .`,
        ],
      });
    }
    references.set(request, value);
  });
}
