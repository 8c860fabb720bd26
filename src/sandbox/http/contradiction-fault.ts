import type { FastifyInstance } from 'fastify';
import { CONTROL_PREFIX } from './control-path.js';

/** The `contradict` fault: the next money answers say another amount, MSISDN or inner status. */
export function registerContradictionFault(
  app: FastifyInstance,
  take: () => 'amount' | 'msisdn' | 'status' | undefined,
): void {
  app.addHook('preSerialization', async (request, reply, payload: Record<string, unknown>) => {
    // The payout and airtime answers echo the request in `payment`; a collection's at the top.
    const echo = { ...((payload['payment'] ?? payload) as Record<string, unknown>) };
    const money = typeof echo['amount'] === 'number' && reply.statusCode < 300;
    const field = money && !request.url.startsWith(CONTROL_PREFIX) ? take() : undefined;
    if (field === undefined) return payload;
    if (field === 'amount') echo['amount'] = Number(echo['amount']) * 10;
    if (field === 'status') echo['status'] = 'failed';
    if (field === 'msisdn')
      echo['msisdn'] = String(echo['msisdn']).replace(/.$/, (d) =>
        d === '9' ? '0' : String(Number(d) + 1),
      );
    return payload['payment'] ? { ...payload, payment: echo } : echo;
  });
}
