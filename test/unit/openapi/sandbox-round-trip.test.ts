import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, type OpenApiDocument } from '../../../src/openapi/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { packageVersion, resolvePointer } from './documents.js';

const document = buildOpenApiDocument({ environment: 'sandbox', version: packageVersion });
const collection = { email: 'collect@duka.co.tz', password: 'collect-secret-1' };

/** The JSON Schema the document promises for this status of this path, as a zod validator. */
function promised(doc: OpenApiDocument, path: string, status: number) {
  const response = doc.paths[path]?.post?.responses[String(status)];
  expect(response, `${path} does not document status ${status}`).toBeDefined();
  const schema = response?.content?.['application/json'].schema as { $ref?: string } | undefined;
  const ref = schema?.$ref ?? '';
  return z.fromJSONSchema(resolvePointer(doc, ref) as Parameters<typeof z.fromJSONSchema>[0]);
}

describe('real sandbox answers match the generated document', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({
      autoSettle: false,
      seed: { accounts: [{ product: 'collection', ...collection }] },
    });
  });
  afterAll(() => sandbox.close());

  const cases: [string, string, unknown, number][] = [
    [
      'register (201)',
      '/api/sandbox/airtime/register',
      {
        name: 'Duka',
        email: 'airtime@duka.co.tz',
        phone: '255754123456',
        password: 'airtime-secret-1',
      },
      201,
    ],
    [
      'disbursement register (201)',
      '/api/sandbox/disbursement/register',
      {
        name: 'Duka',
        email: 'payouts@duka.co.tz',
        phone: '255754123456',
        password: 'payouts-secret-1',
      },
      201,
    ],
    ['collection login', '/api/sandbox/login', collection, 200],
    [
      'secure checkout',
      '/api/sandbox/initiate-secure-payment',
      {
        amount: 1500.5,
        callback_url: 'https://duka.co.tz/callback',
      },
      200,
    ],
    ['provider test', '/api/sandbox/merchant/test-vodacom', undefined, 200],
    ['a 422 (ValidationErrorBody)', '/api/sandbox/initiate-secure-payment', { amount: 1.234 }, 422],
    ['a 401 (ErrorBody)', '/api/sandbox/logout', undefined, 401],
    ['a 404 (ErrorBody)', '/api/sandbox/merchant/test-mpesa', undefined, 404],
  ];

  it.each(cases)('%s', async (_name, url, body, status) => {
    const answer = await sandbox.app.inject({
      method: 'POST',
      url,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    expect(answer.statusCode).toBe(status);
    const validator = promised(document, url.replace(/test-\w+$/, 'test-{provider}'), status);
    const result = validator.safeParse(answer.json());
    expect(result.error?.issues).toBeUndefined();
  });

  it('the validators are strict enough to refuse a wrong body', () => {
    const validator = promised(document, '/api/sandbox/login', 200);
    expect(validator.safeParse({ token: 'x', token_type: 'Basic', user: {} }).success).toBe(false);
  });
});
