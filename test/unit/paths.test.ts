import { describe, expect, it } from 'vitest';
import { type EndpointId, endpoints, sandboxPrefixes } from '../../src/core/endpoints.js';
import { endpointPath } from '../../src/core/paths.js';
import { isRequestValidationError } from '../../src/errors/index.js';

/** The spec's Versioning table, row by row (sandbox path → production path). */
const versioningTable: [EndpointId, string, string][] = [
  ['collectionLogin', '/api/sandbox/login', '/api/login'],
  ['initiateMno', '/api/sandbox/initiate-payment/mno/', '/api/initiate-payment/mno/'],
  ['collectionStatus', '/api/sandbox/transaction/status', '/api/transaction/status'],
  ['airtimePurchase', '/api/sandbox/airtime/customer/payments', '/customer/payments'],
  ['airtimeRecharge', '/api/sandbox/airtime/customer/balancerecharge', '/customer/balancerecharge'],
  ['airtimeRechargeCallback', '/api/sandbox/airtime/callbackUrl', '/api/callbackUrl'],
  ['disbursementRegister', '/api/sandbox/disbursement/register', '/api/register'],
  ['disbursementLogin', '/api/sandbox/disbursement/login', '/api/login'],
  ['disbursementLogout', '/api/sandbox/disbursement/logout', '/api/logout'],
  ['disbursementPay', '/api/sandbox/disbursement/payment', '/api/payment'],
  ['disbursementPayments', '/api/sandbox/disbursement/getPayments', '/api/getPayments'],
  ['disbursementUser', '/api/sandbox/disbursement/user', '/api/user'],
];

const params = { provider: 'vodacom' };

describe('Versioning: the sandbox prefix is replaced by the production path', () => {
  it.each(versioningTable)('%s: %s ↔ %s', (id, sandbox, production) => {
    expect(endpointPath(endpoints[id], 'sandbox')).toBe(sandbox);
    expect(endpointPath(endpoints[id], 'production')).toBe(production);
  });

  it.each(Object.values(endpoints).map((e) => [e.id, e] as const))(
    '%s: its sandbox path is its product prefix plus its path, and production has no sandbox',
    (_id, endpoint) => {
      const sandbox = endpointPath(endpoint, 'sandbox', params);
      const production = endpointPath(endpoint, 'production', params);
      expect(sandbox.startsWith(`${sandboxPrefixes[endpoint.product]}/`)).toBe(true);
      expect(production).not.toContain('/sandbox');
      expect(production.startsWith('/')).toBe(true);
      // Both tables end in the same route: only the prefix changes.
      const route = endpoint.sandboxPath.replace('{provider}', 'vodacom');
      expect(production.endsWith(route)).toBe(true);
    },
  );

  it('no two endpoints of one product share a method and path in either environment', () => {
    for (const environment of ['sandbox', 'production'] as const) {
      const seen = new Set<string>();
      for (const endpoint of Object.values(endpoints)) {
        const key = `${endpoint.product} ${endpoint.method} ${endpointPath(endpoint, environment, params)}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
    }
  });
});

describe('Path parameters are encoded and may not leave their segment', () => {
  const providerTest = endpoints.providerTest;

  it('fills {provider} in both environments', () => {
    expect(endpointPath(providerTest, 'sandbox', params)).toBe(
      '/api/sandbox/merchant/test-vodacom',
    );
    expect(endpointPath(providerTest, 'production', params)).toBe('/api/merchant/test-vodacom');
  });

  it('encodes reserved characters', () => {
    expect(endpointPath(providerTest, 'sandbox', { provider: 'a/b?c#d e' })).toBe(
      '/api/sandbox/merchant/test-a%2Fb%3Fc%23d%20e',
    );
  });

  it.each(['..', '.', ''])('rejects %j', (value) => {
    expect(() => endpointPath(providerTest, 'sandbox', { provider: value })).toThrow(
      /Path parameter "provider" may not be/,
    );
  });

  it('names a missing parameter', () => {
    expect(() => endpointPath(providerTest, 'sandbox')).toThrow(
      /Missing path parameter "provider"/,
    );
  });

  it('a refused parameter is a RequestValidationError naming params.<name>', () => {
    let error: unknown;
    try {
      endpointPath(providerTest, 'sandbox', { provider: '..' });
    } catch (caught) {
      error = caught;
    }
    expect(isRequestValidationError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'request_validation', operation: 'providerTest' });
    expect(Object.keys((error as { errors: object }).errors)).toEqual(['params.provider']);
  });
});
