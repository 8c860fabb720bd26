import type { FastifyInstance, FastifyRequest } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import type { Contradiction } from '../delivery/faults.js';
import { CONTROL_PREFIX } from './control-path.js';
import { routePath } from './route-path.js';

/** What the answer faults use up for a request (the counted ones, or chaos's draw for it). */
export interface AnswerFaults {
  takeContradiction(request: FastifyRequest): Contradiction | undefined;
  takeBareAnswer(where: 'answer' | 'history', request: FastifyRequest): boolean;
  /** Payouts whose history row lies, by refid: the book keeps the truth, the page lies. */
  readonly historyLies: Map<string, Contradiction['field']>;
}

const payoutRoute = routePath(endpoints.disbursementPay);
const historyRoute = routePath(endpoints.disbursementPayments);

/**
 * `contradict`: the next money answers (or, `in: 'history'`, the payout's row in every history
 * page from then on) say another amount, MSISDN, name or status. `bareAnswers`: payout answers
 * (or history pages) with only what the spec shows. The book always keeps the truth.
 */
export function registerAnswerFaults(app: FastifyInstance, faults: AnswerFaults): void {
  app.addHook('preSerialization', async (request, reply, payload: Record<string, unknown>) => {
    if (reply.statusCode >= 300 || request.url.startsWith(CONTROL_PREFIX)) return payload;
    if (request.routeOptions.url === historyRoute) {
      const page =
        faults.historyLies.size > 0 ? lyingHistory(payload, faults.historyLies) : payload;
      return faults.takeBareAnswer('history', request) ? bareHistory(page) : page;
    }
    // The payout and airtime answers echo the request in `payment`; a collection's at the top.
    const echo = { ...((payload['payment'] ?? payload) as Record<string, unknown>) };
    if (typeof echo['amount'] !== 'number') return payload;
    let answer = payload;
    const fault = faults.takeContradiction(request);
    if (fault?.in === 'history') {
      if (request.routeOptions.url === payoutRoute && typeof echo['refid'] === 'string') {
        faults.historyLies.set(echo['refid'], fault.field);
      }
    } else if (fault) {
      lie(echo, fault.field);
      answer = payload['payment'] ? { ...payload, payment: echo } : echo;
    }
    if (request.routeOptions.url === payoutRoute && faults.takeBareAnswer('answer', request)) {
      return { message: answer['message'], response: answer['response'] };
    }
    return answer;
  });
}

/** The history page with each lying payout's row changed (copies: the book is untouched). */
function lyingHistory(
  payload: Record<string, unknown>,
  lies: ReadonlyMap<string, Contradiction['field']>,
): Record<string, unknown> {
  const page = payload['payments'] as { data: Array<Record<string, unknown>> };
  const data = page.data.map((row) => {
    const field = lies.get(String(row['refid']));
    if (field === undefined) return row;
    const copy = { ...row };
    lie(copy, field);
    return copy;
  });
  return { ...payload, payments: { ...page, data } };
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
