import type { Provider } from '../../schemas/provider.js';
import { providerNames } from '../../schemas/provider.js';
import { upstreamOutcome } from './test-numbers.js';

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
): Promise<{ ok: boolean; message: string }> {
  await new Promise((resolve) => setImmediate(resolve));
  const ok = upstreamOutcome(msisdn) === 'success';
  const [accepted, refused] = messages[product];
  return { ok, message: (ok ? accepted : refused)(providerNames[provider]) };
}
