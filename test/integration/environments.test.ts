import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { endpoints, sandboxPrefixes } from '../../src/core/endpoints.js';
import type { Product } from '../../src/schemas/product.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// Spec § Versioning: going live changes paths and hosts, nothing else. Three "production
// hosts" serve only the production paths of their product (anything else is a 404), and
// forward to the sandbox where that route lives under its sandbox prefix.

let harness: Harness;
const hosts = {} as Record<Product, RawServer>;

async function productionHost(product: Product): Promise<RawServer> {
  const routes = new Map<string, string>();
  for (const endpoint of Object.values(endpoints)) {
    if (endpoint.product !== product) continue;
    routes.set(
      `${endpoint.method} ${endpoint.productionPath}`,
      sandboxPrefixes[product] + endpoint.sandboxPath,
    );
  }
  return startRawServer(async (request, response, body) => {
    const [path = '', query] = (request.url ?? '').split('?');
    const target = routes.get(`${request.method} ${path}`);
    if (!target) {
      response.writeHead(404, { 'content-type': 'application/json' });
      return response.end(
        JSON.stringify({ message: `No production route ${request.method} ${path}.` }),
      );
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'x-api-key']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = await fetch(`${harness.url}${target}${query ? `?${query}` : ''}`, {
      method: request.method ?? 'GET',
      headers,
      ...(request.method === 'GET' ? {} : { body }),
    });
    response.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'text/plain',
    });
    response.end(await upstream.text());
  });
}

beforeAll(async () => {
  harness = await startHarness();
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: accounts.disbursement.email,
    amount: 100_000,
  });
  await harness.control('wallets/credit', {
    product: 'airtime',
    email: accounts.airtime.email,
    amount: 100_000,
  });
  for (const product of ['collection', 'airtime', 'disbursement'] as const) {
    hosts[product] = await productionHost(product);
  }
});
afterAll(async () => {
  await Promise.all(Object.values(hosts).map((host) => host.close()));
  await harness.close();
});

/** The same calls, whatever the environment. */
async function everyProduct(pesakit: Pesakit) {
  const collection = await pesakit.collection.initiateMno({
    amount: 5_000,
    msisdn: '255754123456',
  });
  const status = await pesakit.collection.status(collection.controlNumber);
  const sale = await pesakit.airtime.purchase({ msisdn: '255684123456', amount: 1_000 });
  const recharge = await pesakit.airtime.recharge({ amount: 2_000 });
  const airtimeUser = await pesakit.airtime.user();
  const payout = await pesakit.disbursement.pay({
    msisdn: '255713123456',
    amount: 3_000,
    name: 'Juma',
  });
  const page = await pesakit.disbursement.payments({ per_page: 5 });
  return {
    collection: [collection.status, status.data.status, status.data.amount],
    airtime: [sale.status, recharge.status, airtimeUser.user.email],
    disbursement: [payout.response.status, page.data[0]?.refid === payout.response.reference],
  };
}

describe('sandbox → production changes paths and hosts, nothing else', () => {
  it('the same calls give the same answers under both path tables', async () => {
    const sandbox = await everyProduct(harness.client({ environment: 'sandbox' }));
    const production = await everyProduct(
      harness.client({
        environment: 'production',
        // The stand-in production hosts listen on loopback without TLS.
        allowInsecureHttp: true,
        baseUrls: {
          collection: hosts.collection.url,
          airtime: hosts.airtime.url,
          disbursement: hosts.disbursement.url,
        },
      }),
    );
    expect(production).toEqual(sandbox);
    expect(sandbox).toEqual({
      collection: ['pending', 'pending', 5_000],
      airtime: ['success', 'pending', accounts.airtime.email],
      disbursement: [true, true],
    });
  });

  it('production traffic used exactly the production paths on each product host', () => {
    const seen = (product: Product) =>
      new Set(hosts[product].requests.map((r) => `${r.method} ${r.path}`));
    expect(seen('collection')).toEqual(
      new Set([
        'POST /api/login',
        'POST /api/initiate-payment/mno/',
        'POST /api/transaction/status',
      ]),
    );
    expect(seen('airtime')).toEqual(
      new Set([
        'POST /api/login',
        'POST /customer/payments',
        'POST /customer/balancerecharge',
        'GET /api/user',
      ]),
    );
    expect(seen('disbursement')).toEqual(
      new Set(['POST /api/login', 'POST /api/payment', 'POST /api/getPayments']),
    );
  });
});
