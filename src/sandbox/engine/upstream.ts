import type { Provider } from '../../schemas/provider.js';
import { providerNames } from '../../schemas/provider.js';
import { upstreamOutcome } from './test-numbers.js';

/** What an upstream (airtime vendor or disbursement gateway) answered. */
export interface UpstreamResult {
  readonly ok: boolean;
  readonly message: string;
}

const messages = {
  airtime: [
    (name: string) => `Airtime delivered by ${name}.`,
    (name: string) => `${name} rejected the airtime top-up.`,
  ],
  disbursement: [
    (name: string) => `Accepted by ${name}.`,
    (name: string) => `${name} gateway refused the disbursement.`,
  ],
} as const;

/** The airtime vendor or payout gateway (the test number decides); async like the real calls. */
export async function callUpstream(
  product: keyof typeof messages,
  msisdn: string,
  provider: Provider,
): Promise<UpstreamResult> {
  await new Promise((resolve) => setImmediate(resolve));
  const ok = upstreamOutcome(msisdn) === 'success';
  const [accepted, refused] = messages[product];
  return { ok, message: (ok ? accepted : refused)(providerNames[provider]) };
}
