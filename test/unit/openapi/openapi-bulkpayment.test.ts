import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../../src/openapi/index.js';
import { fundAirtime } from '../../bulk/bulk-files.js';
import { accounts, type Harness, startHarness } from '../../helpers/sandbox-harness.js';
import { packageVersion, resolvePointer } from './documents.js';

// docs/openapi.md promises "one operation per endpoint" of the
// platform "as the sandbox serves it", but the airtime bulk upload (`customer/bulkpayment`), a
// money-moving route the sandbox serves and the SDK calls (`bulkPurchase({ via: 'bulkpayment' })`),
// was missing from every document: it lives outside the JSON endpoint table.

const sandboxPath = '/api/sandbox/airtime/customer/bulkpayment';

describe('the OpenAPI document describes the bulk airtime upload', () => {
  const sandboxDocument = buildOpenApiDocument({ environment: 'sandbox', version: packageVersion });
  const operation = sandboxDocument.paths[sandboxPath]?.post;

  it('as a multipart upload of a file and an optional batch_id, with the airtime bearer token', () => {
    expect(operation).toMatchObject({
      operationId: 'airtimeBulkPayment',
      tags: ['airtime'],
      security: [{ bearerAuth: [] }],
    });
    const body = operation?.requestBody;
    expect(body?.required).toBe(true);
    const schema = body?.content['multipart/form-data']?.schema as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(schema.required).toEqual(['file']);
    expect(Object.keys(schema.properties).sort()).toEqual(['batch_id', 'file']);
    expect(body?.content['application/json']).toBeUndefined();
    expect(Object.keys(operation?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '413', '415', '422']),
    );
    expect(operation?.description).toMatch(/never retries/);
  });

  it('in the production airtime document, at /customer/bulkpayment', () => {
    const production = buildOpenApiDocument({
      environment: 'production',
      product: 'airtime',
      version: packageVersion,
    });
    expect(production.paths['/customer/bulkpayment']?.post?.operationId).toBe('airtimeBulkPayment');
    expect(
      buildOpenApiDocument({ environment: 'production', product: 'collection', version: '0' })
        .paths['/customer/bulkpayment'],
    ).toBeUndefined();
  });

  describe('and what the real sandbox answers matches it', () => {
    let harness: Harness;
    beforeAll(async () => {
      harness = await startHarness();
      await fundAirtime(harness, 10_000);
    });
    afterAll(() => harness.close());

    it('a multipart body cut short: the documented 400', async () => {
      const answer = await fetch(`${harness.url}${sandboxPath}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await token()}`,
          'content-type': 'multipart/form-data; boundary=X',
        },
        body: '--X\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nmsisdn',
      });
      expect(answer.status).toBe(400);
      const parsed = promised(400).safeParse(await answer.json());
      expect(parsed.error?.issues).toBeUndefined();
    });

    async function token(): Promise<string> {
      const login = (await (
        await fetch(`${harness.url}/api/sandbox/airtime/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(accounts.airtime),
        })
      ).json()) as { token: string };
      return login.token;
    }

    async function upload(csv: string): Promise<Response> {
      const form = new FormData();
      form.set('batch_id', `openapi-${Date.now()}`);
      form.set('file', new Blob([csv], { type: 'text/csv' }), 'rows.csv');
      return fetch(`${harness.url}${sandboxPath}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await token()}` },
        body: form,
      });
    }

    function promised(status: number) {
      const schema = operation?.responses[String(status)]?.content?.['application/json']
        ?.schema as { $ref: string };
      return z.fromJSONSchema(
        resolvePointer(sandboxDocument, schema.$ref) as Parameters<typeof z.fromJSONSchema>[0],
      );
    }

    it.each([
      ['a completed batch', 'msisdn,amount\r\n255754123456,1000\r\n255754123999,500\r\n', 200],
      ['a refused row', 'msisdn,amount\r\n0754123456,1000\r\n', 422],
    ])('%s', async (_name, csv, status) => {
      const answer = await upload(csv);
      expect(answer.status).toBe(status);
      const parsed = promised(status).safeParse(await answer.json());
      expect(parsed.error?.issues).toBeUndefined();
    });

    it('each row names its merchant reference airtime:<batch_id>:<row>, as documented', async () => {
      const answer = await upload('msisdn,amount\r\n255754123456,100\r\n');
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as {
        batch: { id: string };
        rows: { merchant_reference: string }[];
      };
      expect(body.rows[0]?.merchant_reference).toBe(`airtime:${body.batch.id}:1`);
      expect(promised(200).safeParse(body).error?.issues).toBeUndefined();
      const broken = structuredClone(body);
      broken.rows[0]!.merchant_reference = `${body.batch.id}:1`;
      expect(promised(200).safeParse(broken).success).toBe(false);
    });

    it('a file part without a file name: a 422 that says the part needs one', async () => {
      const boundary = 'pesakitBoundary';
      const answer = await fetch(`${harness.url}${sandboxPath}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await token()}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body:
          `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\n` +
          `msisdn,amount\r\n255754123456,100\r\n--${boundary}--\r\n`,
      });
      expect(answer.status).toBe(422);
      const body = (await answer.json()) as { errors: Record<string, string[]> };
      expect(body.errors['file']?.[0]).toMatch(/no file name.*filename="rows\.csv"/);
      expect(promised(422).safeParse(body).error?.issues).toBeUndefined();
    });
  });
});
