import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import type { Contradiction } from '../delivery/faults.js';
import type { DisbursementRecord } from '../state/disbursements.js';
import { CONTROL_PREFIX } from './control-path.js';
import { routePath } from './route-path.js';

/** What the answer faults use up, and the payout history a `history` lie rewrites. */
export interface AnswerFaults {
  takeContradiction(): Contradiction | undefined;
  takeBareAnswer(where: 'answer' | 'history'): boolean;
  payout(refid: string): DisbursementRecord | undefined;
}

const payoutRoute = routePath(endpoints.disbursementPay);
const historyRoute = routePath(endpoints.disbursementPayments);

/**
 * `contradict`: the next money answers (or, `in: 'history'`, the payout history) say another
 * amount, MSISDN, name or status. `bareAnswers`: payout answers (or history pages) with only
 * what the spec shows.
 */
export function registerAnswerFaults(app: FastifyInstance, faults: AnswerFaults): void {
  app.addHook('preSerialization', async (request, reply, payload: Record<string, unknown>) => {
    if (reply.statusCode >= 300 || request.url.startsWith(CONTROL_PREFIX)) return payload;
    if (request.routeOptions.url === historyRoute && faults.takeBareAnswer('history')) {
      return bareHistory(payload);
    }
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
    if (request.routeOptions.url === payoutRoute && faults.takeBareAnswer('answer')) {
      return { message: answer['message'], response: answer['response'] };
    }
    return answer;
  });
}

/** The history page as the spec shows its rows: `txnid`, `refid` and `amount` only. */
function bareHistory(payload: Record<string, unknown>): Record<string, unknown> {
  const page = payload['payments'] as { data: Array<Record<string, unknown>> };
  const data = page.data.map(({ txnid, refid, amount }) => ({ txnid, refid, amount }));
  return { ...payload, payments: { ...page, data } };
}

function lie(target: Record<string, unknown>, field: Contradiction['field']): void {
  if (field === 'amount') target['amount'] = Number(target['amount']) * 10;
  if (field === 'name' && typeof target['name'] === 'string') {
    target['name'] = `${target['name']} Mwakyusa`;
  }
  if (field === 'status') target['status'] = 'failed';
  if (field === 'msisdn') {
    target['msisdn'] = String(target['msisdn']).replace(/.$/, (d) =>
      d === '9' ? '0' : String(Number(d) + 1),
    );
  }
}
