import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/core/endpoints.js';
import { endpointPath } from '../../src/core/paths.js';
import { bearer, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
let tokens: Record<'collection' | 'airtime' | 'disbursement', string>;
let checkoutToken: string;
let pending: { controlNumber: string; reference: string };

beforeAll(async () => {
  s = await startSandbox();
  tokens = {
    collection: await s.account('collection', 'prop@duka.tz'),
    airtime: await s.account('airtime', 'prop@duka.tz', 5000),
    disbursement: await s.account('disbursement', 'prop@duka.tz', 5000),
  };
  const tx = await s.call(
    'POST',
    '/api/sandbox/initiate-payment/bank/',
    { amount: 1000 },
    bearer(tokens.collection),
  );
  pending = tx.body as typeof pending;
  const secure = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
    amount: 1000,
    callback_url: 'https://shop.example/return',
  });
  checkoutToken = (secure.body as { payment_token: string }).payment_token;
});
afterAll(() => s.close());

interface Target {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
}

function targets(): Target[] {
  const list: Target[] = Object.values(endpoints).map((endpoint) => ({
    method: endpoint.method,
    path: endpointPath(endpoint, 'sandbox', { provider: 'vodacom' }),
    headers: endpoint.auth === 'bearer' ? bearer(tokens[endpoint.product]) : {},
  }));
  const control = ['accounts', 'wallets/credit', 'collection/settle'].map((path) => ({
    method: 'POST' as const,
    path: `/api/sandbox/_control/${path}`,
    headers: {},
  }));
  const checkout = [
    { method: 'POST' as const, path: `/api/sandbox/checkout/${checkoutToken}/card`, headers: {} },
    { method: 'GET' as const, path: `/api/sandbox/checkout/${checkoutToken}`, headers: {} },
    { method: 'GET' as const, path: `/api/sandbox/checkout/${checkoutToken}/status`, headers: {} },
  ];
  return [...list, ...control, ...checkout];
}

/** Field names the routes know, so that generated objects reach deep into validation. */
const knownKey = fc.constantFrom(
  'email',
  'password',
  'name',
  'phone',
  'msisdn',
  'amount',
  'callback_url',
  'ref_id',
  'token',
  'controlNumber',
  'status',
  'page',
  'per_page',
  'product',
  'outcome',
  'data',
  'session_id',
  'card_number',
  'message',
  'code',
  'description',
  '__proto__',
  'constructor',
);
const junkValue = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.string({ maxLength: 5000 }),
  fc.constantFrom(
    '255754123456',
    '255754123999',
    'a@b.tz',
    'x'.repeat(300_000),
    -1,
    0,
    1e308,
    1e21,
    1_000_000_000,
    0.001,
    'y'.repeat(2049),
    'http://127.0.0.1:1/api/sandbox/_control/reset',
    'http://127.0.0.1:1/api/sandbox/%5Fcontrol/faults',
  ),
  fc.double(),
);
const shapedObject = fc.dictionary(knownKey, junkValue, { maxKeys: 8 });
const nested = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    junkValue,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(knownKey, tie('node'), { maxKeys: 3 }),
  ),
})).node;

/** Headers a browser, another site or the sandbox's own deliveries would add. */
const extraHeaders = fc.constantFrom<Record<string, string>>(
  {},
  {},
  { origin: 'http://evil.example' },
  { 'sec-fetch-site': 'cross-site' },
  { 'x-pesakit-sandbox-delivery': '1' },
  { 'x-request-id': 'chosen-by-caller' },
);

/** A body as bytes on the wire: JSON of anything, shaped objects, or bytes that are not JSON. */
const body = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  shapedObject.map((value) => JSON.stringify(value) ?? '{}'),
  nested.map((value) => JSON.stringify(value) ?? 'null'),
  fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.string({ maxLength: 200 }).map((text) => `{${text}`),
  fc.constant(''),
);

describe('no generated body makes any route answer 5xx, and a rejected request changes no state', () => {
  it('holds for every route', async () => {
    const all = targets();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...all),
        body,
        fc.boolean(),
        extraHeaders,
        async (target, payload, json, extra) => {
          const before = s.sandbox.inspect.snapshot();
          const response = await fetch(`${s.url}${target.path}`, {
            method: target.method,
            headers: {
              ...extra,
              ...target.headers,
              'content-type': json ? 'application/json' : 'application/octet-stream',
            },
            ...(target.method === 'POST' ? { body: payload } : {}),
          });
          const text = await response.text();
          expect(
            response.status,
            `${target.method} ${target.path} → ${text.slice(0, 200)}`,
          ).toBeLessThan(500);
          if (!response.headers.get('content-type')?.startsWith('text/html')) {
            expect(() => JSON.parse(text)).not.toThrow();
          }
          expect(response.headers.get('x-request-id')).toMatch(/^req_/);
          if (response.status >= 400) expect(s.sandbox.inspect.snapshot()).toEqual(before);
        },
      ),
      { numRuns: 400 },
    );
    // The fixtures survived: nothing above settled or broke them.
    expect(s.sandbox.inspect.collection(pending.controlNumber)?.status).toBe('pending');
  });
});
