import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, type OpenApiDocument } from '../../../src/openapi/index.js';
import { MemoryReferenceStore } from '../../../src/references/memory-store.js';
import { engineCallback } from '../../callbacks/payloads.js';
import { type Harness, startHarness } from '../../helpers/sandbox-harness.js';
import { packageVersion, resolvePointer } from './documents.js';

// The spec's route table has the engine's settlement callback
// as "GET or POST /api/sandbox/callback", and the sandbox serves both (GET with the payload's
// fields in the query: `status=true&data[amount]=…`), but the OpenAPI document described only
// POST — a GET from a generated client or a contract test had nothing to follow.

const path = '/api/sandbox/callback';
const document = buildOpenApiDocument({ environment: 'sandbox', version: packageVersion });

/** The query string the document's parameters describe, built from a payload. */
function queryFor(doc: OpenApiDocument, payload: ReturnType<typeof engineCallback>): string {
  const query = new URLSearchParams();
  for (const parameter of doc.paths[path]?.get?.parameters ?? []) {
    const value = payload[parameter.name as keyof typeof payload];
    if (parameter.name === 'data') {
      expect(parameter).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
      for (const [field, inner] of Object.entries(value as object))
        query.set(`data[${field}]`, String(inner));
    } else {
      expect(parameter.in).toBe('query');
      query.set(parameter.name, String(value));
    }
  }
  return query.toString();
}

describe('the OpenAPI document describes the settlement callback sent as GET', () => {
  const operation = document.paths[path]?.get;

  it('with one query parameter per payload field, data as a deep object, the same security', () => {
    expect(operation?.operationId).toBe('engineCallbackQuery');
    expect(operation?.tags).toEqual(['collection']);
    expect(operation?.security).toEqual(document.paths[path]?.post?.security);
    expect(operation?.requestBody).toBeUndefined();
    expect(operation?.parameters?.map((parameter) => parameter.name).sort()).toEqual(
      ['code', 'data', 'description', 'message', 'status'].sort(),
    );
    const production = buildOpenApiDocument({
      environment: 'production',
      product: 'collection',
      version: packageVersion,
    });
    expect(production.paths['/api/callback']?.get?.operationId).toBe('engineCallbackQuery');
  });

  describe('and the real sandbox answers a GET built from it as documented', () => {
    let harness: Harness;
    beforeAll(async () => {
      harness = await startHarness();
    });
    afterAll(() => harness.close());

    function promised(status: number) {
      const schema = operation?.responses[String(status)]?.content?.['application/json']
        ?.schema as { $ref: string };
      return z.fromJSONSchema(
        resolvePointer(document, schema.$ref) as Parameters<typeof z.fromJSONSchema>[0],
      );
    }

    it('200 for a pending payment, 404 for an unknown reference', async () => {
      const payment = await harness
        .client({ store: new MemoryReferenceStore() })
        .collection.initiateMno({ amount: 15_000, msisdn: '255754123456' });
      const paid = engineCallback({ paymentReference: payment.reference, amount: 15_000 });
      const unknown = engineCallback({ paymentReference: 'ENG-NOT-OURS', amount: 15_000 });
      for (const [payload, status] of [
        [paid, 200],
        [unknown, 404],
      ] as const) {
        const answer = await fetch(`${harness.url}${path}?${queryFor(document, payload)}`);
        expect(answer.status).toBe(status);
        const parsed = promised(status).safeParse(await answer.json());
        expect(parsed.error?.issues).toBeUndefined();
      }
    });
  });
});
