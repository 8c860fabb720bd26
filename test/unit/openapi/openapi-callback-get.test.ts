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

    it('reads a number in the query as the POST body reads it (1.5e4 is 15000)', async () => {
      const client = harness.client({ store: new MemoryReferenceStore() });
      const payment = await client.collection.initiateMno({
        amount: 15_000,
        msisdn: '255754123456',
      });
      const payload = engineCallback({ paymentReference: payment.reference, amount: 15_000 });
      const query = queryFor(document, payload).replace(
        'data%5Bamount%5D=15000',
        'data%5Bamount%5D=1.5e4',
      );
      expect(query).toContain('data%5Bamount%5D=1.5e4');
      const answer = await fetch(`${harness.url}${path}?${query}`);
      expect(answer.status).toBe(200);
      const status = await client.collection.status(payment.controlNumber);
      expect(status.data).toMatchObject({ status: 'success', paid_amount: 15_000 });
    });

    it('refuses what JSON would not read as a number, naming data.amount', async () => {
      const payload = engineCallback({ paymentReference: 'ENG-ANY', amount: 15_000 });
      for (const written of ['015000', '15000.', '0x3a98', '1e']) {
        const query = queryFor(document, payload).replace(
          'data%5Bamount%5D=15000',
          `data%5Bamount%5D=${encodeURIComponent(written)}`,
        );
        const answer = await fetch(`${harness.url}${path}?${query}`);
        expect(answer.status, written).toBe(422);
        const body = (await answer.json()) as { errors: Record<string, string[]> };
        expect(body.errors['data.amount'], written).toEqual(['The amount must be a number.']);
      }
    });
  });
});
