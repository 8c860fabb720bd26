import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { Pesakit, type PesakitOptions } from '../../src/client.js';
import { isAmbiguousOutcomeError } from '../../src/errors/ambiguous-outcome-error.js';
import type { ReferenceStore } from '../../src/references/index.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

/**
 * Runs `send` with the sandbox's latency fault above the client's timeout: the platform does
 * the work, the answer is lost, the record stays `unknown` (AmbiguousOutcomeError). The client
 * logs in first, so only the money-moving request is slow.
 */
export async function lostAnswer(
  harness: Harness,
  product: 'collection' | 'airtime' | 'disbursement',
  store: ReferenceStore,
  send: (client: Pesakit, options: { timeoutMs: number }) => Promise<unknown>,
) {
  const client = harness.client({ store, maxRetries: 0 });
  await client[product].login();
  await harness.control('faults', { latencyMs: 1_500 });
  try {
    const error = await send(client, { timeoutMs: 400 }).then(
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

/** A request as the counting proxy saw it. */
export interface ProxiedRequest {
  path: string;
  body: string;
  at: number;
}

export interface CountingProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A loopback proxy in front of the sandbox: records every request (to count pulls at the
 * platform's door) and lets a test answer some itself (`intercept`, e.g. a 429) or slow them.
 */
export async function startProxy(
  target: string,
  options: {
    intercept?: (
      request: ProxiedRequest,
    ) => { status: number; headers?: Record<string, string>; body: unknown } | undefined;
    delayMs?: (request: ProxiedRequest) => number;
  } = {},
): Promise<CountingProxy> {
  const requests: ProxiedRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const seen = { path: request.url ?? '', body: body.toString(), at: Date.now() };
    requests.push(seen);
    const answer = options.intercept?.(seen);
    if (answer) {
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body));
      return;
    }
    const delay = options.delayMs?.(seen) ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const upstream = await fetch(`${target}${request.url}`, {
      method: request.method ?? 'GET',
      headers: Object.fromEntries(
        Object.entries(request.headers).filter(
          ([name, value]) =>
            typeof value === 'string' && name !== 'host' && name !== 'content-length',
        ) as [string, string][],
      ),
      ...(body.length > 0 ? { body } : {}),
    });
    const retryAfter = upstream.headers.get('retry-after');
    response.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      // A 429's Retry-After is what the client waits: it must reach the client.
      ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
    });
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a proxy's `intercept` may do with a request (startProxy's option). */
type Intercept = NonNullable<Parameters<typeof startProxy>[1]>['intercept'];

/**
 * One sandbox behind one counting proxy for the whole test file: started before its tests,
 * closed after them. The getters are read inside the tests and hooks, once `beforeAll` ran.
 */
export function sandboxBehindProxy(intercept?: Intercept): {
  readonly harness: Harness;
  readonly proxy: CountingProxy;
} {
  let harness: Harness | undefined;
  let proxy: CountingProxy | undefined;
  beforeAll(async () => {
    harness = await startHarness();
    proxy = await startProxy(harness.url, intercept ? { intercept } : {});
  });
  afterAll(async () => {
    await proxy?.close();
    await harness?.close();
  });
  return {
    get harness() {
      if (!harness) throw new Error('sandboxBehindProxy: the sandbox is started in beforeAll.');
      return harness;
    },
    get proxy() {
      if (!proxy) throw new Error('sandboxBehindProxy: the proxy is started in beforeAll.');
      return proxy;
    },
  };
}

/** A sandbox client that goes through `proxy` (which counts its requests), on `store`. */
export function clientThrough(
  proxy: CountingProxy,
  store: ReferenceStore,
  options: Partial<PesakitOptions> = {},
): Pesakit {
  return new Pesakit({
    environment: 'sandbox',
    baseUrl: proxy.url,
    credentials: accounts,
    store,
    ...options,
  });
}
