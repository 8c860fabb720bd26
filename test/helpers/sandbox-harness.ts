import { Pesakit, type PesakitOptions } from '../../src/client.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { harnessFetch } from './openapi-contract.js';

export const accounts = {
  collection: { email: 'collect@duka.co.tz', password: 'collect-secret-1' },
  airtime: { email: 'airtime@duka.co.tz', password: 'airtime-secret-1' },
  disbursement: { email: 'payouts@duka.co.tz', password: 'payouts-secret-1' },
} as const;

export interface Harness {
  readonly sandbox: Sandbox;
  readonly url: string;
  /** A client on this sandbox with all three accounts' credentials. */
  client(options?: Partial<PesakitOptions>): Pesakit;
  /** Calls the control API (`/api/sandbox/_control/<path>`) and returns the JSON answer. */
  control(path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Starts a real sandbox on a free loopback port with one active account per product. Tests
 * drive settlement through the control API, so automatic settlement is off unless asked for.
 */
export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await createSandbox({
    autoSettle: false,
    callbackSchedule: [5, 10],
    seed: {
      accounts: [
        { product: 'collection', ...accounts.collection },
        { product: 'airtime', ...accounts.airtime, status: 'active', balance: 0 },
        { product: 'disbursement', ...accounts.disbursement, status: 'active', balance: 0 },
      ],
    },
    ...options,
  });
  const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  return {
    sandbox,
    url,
    client: (overrides = {}) => {
      const checked =
        overrides.fetch === undefined
          ? harnessFetch(options.maxAmount !== undefined ? { maxAmount: options.maxAmount } : {})
          : undefined;
      return new Pesakit({
        environment: 'sandbox',
        baseUrl: url,
        credentials: accounts,
        ...(checked !== undefined ? { fetch: checked } : {}),
        ...overrides,
      });
    },
    async control(path, body) {
      const response = await fetch(`${url}/api/sandbox/_control/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      const json = await response.json();
      if (!response.ok)
        throw new Error(`control ${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    },
    close: () => sandbox.close(),
  };
}
