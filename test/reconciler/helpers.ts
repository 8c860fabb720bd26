import { expect } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { isAmbiguousOutcomeError } from '../../src/errors/ambiguous-outcome-error.js';
import type { ReferenceStore } from '../../src/references/index.js';
import { accounts, type Harness } from '../helpers/sandbox-harness.js';

/**
 * Runs `send` with the sandbox's latency fault above the client's timeout: the platform does
 * the work, the answer is lost, the record stays `unknown` (AmbiguousOutcomeError). The client
 * logs in first, so only the money-moving request is slow.
 */
export async function lostAnswer(
  harness: Harness,
  product: 'collection' | 'airtime' | 'disbursement',
  store: ReferenceStore,
  send: (client: Pesakit) => Promise<unknown>,
) {
  const client = harness.client({ store, timeoutMs: 300, maxRetries: 0 });
  await client[product].login();
  await harness.control('faults', { latencyMs: 700 });
  try {
    const error = await send(client).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isAmbiguousOutcomeError(error), String(error)).toBe(true);
  } finally {
    await harness.control('faults', { latencyMs: 0 });
  }
}

export async function fund(harness: Harness, product: 'airtime' | 'disbursement', amount: number) {
  await harness.control('wallets/credit', { product, email: accounts[product].email, amount });
}
