import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import { routePath } from './route-path.js';

const moneyRoutes = new Set(
  (
    [
      'initiateMno',
      'initiateBank',
      'initiateSecure',
      'payMobile',
      'airtimePurchase',
      'disbursementPay',
    ] as const
  ).map((id) => routePath(endpoints[id])),
);

/** The `contradict` fault: a money call's 2xx answer says another amount, MSISDN or inner status. */
export function registerContradictionFault(
  app: FastifyInstance,
  take: () => 'amount' | 'msisdn' | 'status' | undefined,
): void {
  app.addHook('preSerialization', async (request, reply, payload: Record<string, unknown>) => {
    if (reply.statusCode >= 300 || !moneyRoutes.has(request.routeOptions.url ?? '')) return payload;
    const field = take();
    if (field === undefined) return payload;
    // The payout and airtime answers echo the request in `payment`; a collection's at the top.
    const echo = { ...((payload['payment'] ?? payload) as Record<string, unknown>) };
    if (field === 'amount') echo['amount'] = Number(echo['amount']) * 10;
    if (field === 'msisdn')
      echo['msisdn'] = String(echo['msisdn']).replace(/\d$/, (d) => String((Number(d) + 1) % 10));
    if (field === 'status') echo['status'] = 'failed';
    return payload['payment'] ? { ...payload, payment: echo } : echo;
  });
}
