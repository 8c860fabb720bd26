import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { parseBody, sendValidationError } from '../http/replies.js';
import { airtimePaymentView } from '../state/airtime.js';

const airtimePaymentsQuerySchema = z.object({
  msisdn: z.string().max(32).optional(),
  reference: z.string().max(64).optional(),
  status: z.enum(['pending', 'success', 'failed']).optional(),
});

/**
 * `GET _control/airtime/payments?msisdn=&reference=&status=`: the airtime payments the
 * sandbox made (single purchases and bulk rows alike), oldest first, with their count. Tests
 * use it as ground truth — "how many times was this number paid?" — since the platform itself
 * has no airtime payment list.
 */
export function registerAirtimePaymentsControl(
  control: FastifyInstance,
  context: SandboxContext,
): void {
  control.get('/airtime/payments', async (request, reply) => {
    const parsed = parseBody(airtimePaymentsQuerySchema, request.query);
    if (!parsed.ok) return sendValidationError(reply, parsed.errors);
    const { msisdn, reference, status } = parsed.data;
    const payments = context.airtime.payments
      .filter(
        (payment) =>
          (msisdn === undefined || payment.msisdn === msisdn) &&
          (reference === undefined || payment.reference === reference) &&
          (status === undefined || payment.status === status),
      )
      .map(airtimePaymentView);
    return { count: payments.length, payments };
  });
}
