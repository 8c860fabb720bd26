import { describe, expect, it } from 'vitest';
import {
  type Endpoint,
  type Environment,
  endpoints,
  sandboxPrefixes,
} from '../../../src/core/endpoints.js';
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOptions,
} from '../../../src/openapi/index.js';
import type { OpenApiOperation } from '../../../src/openapi/types.js';
import { airtimeBulkPaymentEndpoint } from '../../../src/resources/bulk/bulkpayment-endpoint.js';
import { allDocuments, packageVersion, products, resolvePointer } from './documents.js';

const table = Object.values(endpoints) as readonly Endpoint[];
/** The JSON table and the upload route outside it (`customer/bulkpayment`). */
const everyEndpoint: readonly Endpoint[] = [...table, airtimeBulkPaymentEndpoint];

interface Found {
  method: string;
  path: string;
  operation: OpenApiOperation;
  document: OpenApiDocument;
}

function operationsOf(documents: readonly OpenApiDocument[]): Found[] {
  return documents.flatMap((document) =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method,
        path,
        operation: operation as OpenApiOperation,
        document,
      })),
    ),
  );
}

const documentsOf: Record<Environment, () => OpenApiDocument[]> = {
  sandbox: () => [buildOpenApiDocument({ environment: 'sandbox', version: packageVersion })],
  production: () =>
    products.map((product) =>
      buildOpenApiDocument({ environment: 'production', product, version: packageVersion }),
    ),
};

const expectedPath = (endpoint: Endpoint, environment: Environment) =>
  environment === 'sandbox'
    ? sandboxPrefixes[endpoint.product] + endpoint.sandboxPath
    : endpoint.productionPath;

/** The component a `{$ref}` schema of an operation points at. */
function schemaAt(
  document: OpenApiDocument,
  schema: unknown,
): { type?: unknown; properties?: object } {
  const ref = (schema as { $ref?: string }).$ref;
  expect(ref, 'wire bodies are components, referred to by $ref').toMatch(
    /^#\/components\/schemas\//,
  );
  return resolvePointer(document, ref ?? '') as { type?: unknown; properties?: object };
}

describe.each(['sandbox', 'production'] as const)('the %s documents', (environment) => {
  const found = operationsOf(documentsOf[environment]());

  it('hold every endpoint of the table exactly once, and nothing else', () => {
    const ids = found.map(({ operation }) => operation.operationId).sort();
    // …and the GET twin of the engine's callback (spec: "GET or POST /api/sandbox/callback").
    const expected = [...everyEndpoint.map((endpoint) => endpoint.id), 'engineCallbackQuery'];
    expect(ids).toEqual(expected.sort());
  });

  it.each(table.map((endpoint) => [endpoint.id, endpoint] as const))(
    '%s: method, path, tag, summary, request and response schemas',
    (_id, endpoint) => {
      const entry = found.find(({ operation }) => operation.operationId === endpoint.id)!;
      expect(entry.method).toBe(endpoint.method.toLowerCase());
      expect(entry.path).toBe(expectedPath(endpoint, environment));
      expect(entry.operation.tags).toEqual([endpoint.product]);
      expect(entry.operation.summary).toBe(endpoint.summary);

      const success = Object.entries(entry.operation.responses).filter(([status]) =>
        status.startsWith('2'),
      );
      expect(success).toHaveLength(1);
      const [, response] = success[0]!;
      const responseSchema = schemaAt(
        entry.document,
        response.content?.['application/json'].schema,
      );
      expect(responseSchema.type).toBe('object');

      if (endpoint.request === undefined) {
        expect(entry.operation.requestBody).toBeUndefined();
      } else {
        const body = entry.operation.requestBody?.content['application/json']?.schema;
        const requestSchema = schemaAt(entry.document, body);
        expect(requestSchema.type).toBe('object');
        expect(Object.keys(requestSchema.properties ?? {})).toEqual(
          Object.keys((endpoint.request as unknown as { shape: object }).shape),
        );
      }
    },
  );
});

describe('responses', () => {
  const { document } = allDocuments()[0]!;
  const byId = new Map(
    operationsOf([document]).map(({ operation }) => [operation.operationId, operation]),
  );
  const statuses = (id: string) => Object.keys(byId.get(id)?.responses ?? {});

  it('register answers 201 (as the sandbox routes do); every other endpoint 200', () => {
    for (const endpoint of table) {
      const created = endpoint.id === 'airtimeRegister' || endpoint.id === 'disbursementRegister';
      expect(statuses(endpoint.id), endpoint.id).toContain(created ? '201' : '200');
    }
  });

  it('every bearer route can answer 401, every route with a body 422 (ValidationErrorBody)', () => {
    for (const endpoint of table) {
      const responses = byId.get(endpoint.id)!.responses;
      if (endpoint.auth === 'bearer') expect(Object.keys(responses), endpoint.id).toContain('401');
      if (endpoint.request !== undefined) {
        expect(responses['422']?.content?.['application/json'].schema).toEqual({
          $ref: '#/components/schemas/ValidationErrorBody',
        });
      } else {
        expect(responses['422'], endpoint.id).toBeUndefined();
      }
    }
  });

  it('lists the 400s and 404s of docs/api-contract.md, with ErrorBody', () => {
    expect(statuses('collectionStatus')).toContain('404');
    expect(statuses('providerTest')).toContain('404');
    expect(statuses('airtimeRechargeCallback')).toContain('404');
    expect(statuses('engineCallback')).toContain('404');
    expect(byId.get('disbursementPay')?.responses['400']?.description).toMatch(/MSISDN/);
    expect(
      byId.get('providerTest')?.responses['404']?.content?.['application/json'].schema,
    ).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(statuses('airtimeUser')).toContain('403');
    expect(statuses('disbursementUser')).not.toContain('403');
  });
});

describe('security', () => {
  const { document } = allDocuments()[0]!;
  const security = (id: string) =>
    operationsOf([document]).find(({ operation }) => operation.operationId === id)?.operation
      .security;

  it('bearer routes require HTTP bearer; logins and register need nothing', () => {
    expect(document.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
    });
    expect(security('disbursementPay')).toEqual([{ bearerAuth: [] }]);
    expect(security('collectionLogin')).toEqual([]);
    expect(security('airtimeRegister')).toEqual([]);
  });

  it('pay_mobile takes an optional x-api-key and the engine callback an optional x-engine-key', () => {
    expect(document.components.securitySchemes).toMatchObject({
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      engineKey: { type: 'apiKey', in: 'header', name: 'x-engine-key' },
    });
    expect(security('payMobile')).toEqual([{}, { apiKey: [] }]);
    expect(security('engineCallback')).toEqual([{}, { engineKey: [] }]);
  });

  it('payment-token routes say the token travels in the body', () => {
    const checkout = operationsOf([document]).find(
      ({ operation }) => operation.operationId === 'checkoutMno',
    )?.operation;
    expect(checkout?.security).toEqual([]);
    expect(checkout?.description).toMatch(/payment_token.*body as `token`/);
  });
});

describe('the provider test path', () => {
  it.each(allDocuments().slice(0, 2))(
    'declares {provider} as a path parameter ($name)',
    ({ document }) => {
      const path = Object.keys(document.paths).find((key) => key.endsWith('test-{provider}'))!;
      expect(document.paths[path]?.post?.parameters).toEqual([
        expect.objectContaining({
          name: 'provider',
          in: 'path',
          required: true,
          schema: expect.objectContaining({ enum: expect.arrayContaining(['vodacom', 'card']) }),
        }),
      ]);
    },
  );
});

describe('options', () => {
  it('refuses one production document for all products: /api/login would be three operations', () => {
    const all = { environment: 'production', version: '1.0.0' } as unknown as OpenApiOptions;
    expect(() => buildOpenApiDocument(all)).toThrow(
      /POST \/api\/login would be both collectionLogin and airtimeLogin/,
    );
  });

  it('takes info.version from the caller and keeps one product when asked', () => {
    const document = buildOpenApiDocument({
      environment: 'sandbox',
      product: 'airtime',
      version: '9.8.7',
    });
    expect(document.info.version).toBe('9.8.7');
    expect(document.tags.map((tag) => tag.name)).toEqual(['airtime']);
    expect(
      Object.keys(document.paths).every((path) => path.startsWith('/api/sandbox/airtime/')),
    ).toBe(true);
  });

  it('serves the sandbox at 127.0.0.1:4010 and production from a per-product host variable', () => {
    const [sandbox, collection] = allDocuments();
    expect(sandbox?.document.servers).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:4010' }),
    ]);
    expect(collection?.document.servers[0]).toMatchObject({
      url: '{baseUrl}',
      variables: { baseUrl: { default: 'https://collection.invalid' } },
    });
  });
});
