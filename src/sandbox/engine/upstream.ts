import type { Provider } from '../../schemas/provider.js';
import { providerNames } from '../../schemas/provider.js';
import { upstreamOutcome } from './test-numbers.js';

/** What an upstream (airtime vendor or disbursement gateway) answered. */
export interface UpstreamResult {
  readonly ok: boolean;
  readonly message: string;
}

/**
 * The upstream call is asynchronous on purpose: the real vendor and gateway are network calls,
 * and the sandbox must behave correctly (no double spend) with other requests running while
 * one waits for its upstream.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The external airtime vendor (spec: airtime purchase rule 5). */
export async function callAirtimeVendor(
  msisdn: string,
  provider: Provider,
): Promise<UpstreamResult> {
  await nextTurn();
  return upstreamOutcome(msisdn) === 'success'
    ? { ok: true, message: `Airtime delivered by ${providerNames[provider]}.` }
    : { ok: false, message: `${providerNames[provider]} rejected the airtime top-up.` };
}

/** The provider's disbursement gateway (spec: disbursement processing order 5). */
export async function callDisbursementGateway(
  msisdn: string,
  provider: Provider,
): Promise<UpstreamResult> {
  await nextTurn();
  return upstreamOutcome(msisdn) === 'success'
    ? { ok: true, message: `Accepted by ${providerNames[provider]}.` }
    : { ok: false, message: `${providerNames[provider]} gateway refused the disbursement.` };
}
