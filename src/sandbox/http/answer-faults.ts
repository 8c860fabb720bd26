import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import type { Contradiction } from '../delivery/faults.js';
import type { DisbursementRecord } from '../state/disbursements.js';
import { CONTROL_PREFIX } from './control-path.js';
import { routePath } from './route-path.js';

/** What the answer faults use up, and the payout history a `history` lie rewrites. */
export interface AnswerFaults {
  takeContradiction(): Contradiction | undefined;
  takeBareAnswer(): boolean;
  payout(refid: string): DisbursementRecord | undefined;
}

const payoutRoute = routePath(endpoints.disbursementPay);

/**
 * `contradict`: the next money answers (or, `in: 'history'`, the payout history) say another
 * amount, MSISDN or status. `bareAnswers`: payout answers with only what the spec shows.
 */
export function registerAnswerFaults(app: FastifyInstance, faults: AnswerFaults): void {
  app.addHook('preSerialization', async (request, reply, payload: Record<string, unknown>) => {
    if (reply.statusCode >= 300 || request.url.startsWith(CONTROL_PREFIX)) return payload;
    // The payout and airtime answers echo the request in `payment`; a collection's at the top.
    const echo = { ...((payload['payment'] ?? payload) as Record<string, unknown>) };
    if (typeof echo['amount'] !== 'number') return payload;
    let answer = payload;
    const fault = faults.takeContradiction();
    if (fault?.in === 'history') {
      const row = faults.payout(String(echo['refid']));
      if (row) lie(row as unknown as Record<string, unknown>, fault.field);
    } else if (fault) {
      lie(echo, fault.field);
      answer = payload['payment'] ? { ...payload, payment: echo } : echo;
    }
    if (request.routeOptions.url === payoutRoute && faults.takeBareAnswer()) {
      return { message: answer['message'], response: answer['response'] };
    }
    return answer;
  });
}

function lie(target: Record<string, unknown>, field: Contradiction['field']): void {
  if (field === 'amount') target['amount'] = Number(target['amount']) * 10;
  if (field === 'status') target['status'] = 'failed';
  if (field === 'msisdn') {
    target['msisdn'] = String(target['msisdn']).replace(/.$/, (d) =>
      d === '9' ? '0' : String(Number(d) + 1),
    );
  }
}
