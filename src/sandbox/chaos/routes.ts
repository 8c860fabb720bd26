import { endpoints, sandboxPrefixes } from '../../core/endpoints.js';
import { routePath } from '../http/route-path.js';
import type { ChaosFault } from './faults.js';

const apiBase = sandboxPrefixes.collection;

/** Routes no merchant calls: the engine's and the payment side's callbacks, the browser's page. */
const outsideChaos = new Set([
  routePath(endpoints.engineCallback),
  routePath(endpoints.airtimeRechargeCallback),
  `${apiBase}/checkout/:token`,
  `${apiBase}/checkout/:token/status`,
]);

const payoutRoute = routePath(endpoints.disbursementPay);
const historyRoute = routePath(endpoints.disbursementPayments);

/** Routes whose answer echoes the request's amount: a lie there contradicts the request. */
const echoesAmount = new Set(
  [
    endpoints.initiateMno,
    endpoints.initiateBank,
    endpoints.initiateSecure,
    endpoints.payMobile,
    endpoints.airtimePurchase,
  ].map(routePath),
);

const everyRoute: readonly ChaosFault[] = [
  'error_before',
  'cut_before',
  'rate_limit',
  'late_answer',
  'cut_after',
];

/** The faults a request to `route` may draw; `undefined` for a route chaos leaves alone. */
export function faultsForRoute(route: string | undefined): readonly ChaosFault[] | undefined {
  if (route === undefined || outsideChaos.has(route)) return undefined;
  if (route === payoutRoute) {
    return [...everyRoute, 'bare_answer', 'contradict_answer', 'contradict_history'];
  }
  if (route === historyRoute) return [...everyRoute, 'bare_answer'];
  if (echoesAmount.has(route)) return [...everyRoute, 'contradict_answer'];
  return everyRoute;
}
