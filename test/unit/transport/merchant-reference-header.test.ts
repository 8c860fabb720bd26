import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import { type LocalServer, startServer } from './local-server.js';
import { purchase } from './platform.js';

// The sandbox's request log ties a payout or an airtime purchase (whose bodies carry no merchant
// reference) to its record through this header; production never sees it.

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function headersOf(environment: 'sandbox' | 'production', merchantReference?: string) {
  const seen: http.IncomingHttpHeaders[] = [];
  server = await startServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"no"}');
  });
  const t = new Transport(
    environment === 'sandbox'
      ? { baseUrl: server.url }
      : // A TLS-terminating proxy on this host, as production over loopback allows.
        { environment: 'production', baseUrls: { airtime: server.url }, allowInsecureHttp: true },
  );
  t.setToken('airtime', 'tok-1');
  await t
    .request('airtimePurchase', {
      body: purchase,
      ...(merchantReference === undefined ? {} : { merchantReference }),
    })
    .catch(() => undefined);
  // The request arrived: an absent header is the transport's choice, not a lost request.
  expect(seen).toHaveLength(1);
  return seen[0] ?? {};
}

describe('x-pesakit-merchant-reference', () => {
  it('names the money call’s merchant reference to the sandbox', async () => {
    const headers = await headersOf('sandbox', 'order-17');
    expect(headers['x-pesakit-merchant-reference']).toBe('order-17');
  });

  it('is never sent to production', async () => {
    const headers = await headersOf('production', 'order-17');
    expect(headers['x-pesakit-merchant-reference']).toBeUndefined();
  });

  it('is not sent for a call that has no merchant reference', async () => {
    const headers = await headersOf('sandbox');
    expect(headers['x-pesakit-merchant-reference']).toBeUndefined();
  });
});
