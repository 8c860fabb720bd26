import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiOperation } from '../../../src/openapi/types.js';
import { committedDocument, OpenApiContract } from '../../helpers/openapi-contract.js';
import { accounts, type Harness, startHarness } from '../../helpers/sandbox-harness.js';
import { resolvePointer } from './documents.js';

// Requests generated from docs/openapi.json alone, sent to the real sandbox: the document and the
// sandbox agree when no request makes it fail (5xx), none the document calls valid is refused
// for a field (422), and every one it calls invalid is refused (4xx). Seeded: a failure replays.

const SEED = 20_260_215;
const RUNS = 50;
const document = committedDocument;
const contract = new OpenApiContract([document]);

type Schema = Record<string, unknown>;

const resolve = (schema: Schema): Schema =>
  typeof schema['$ref'] === 'string'
    ? (resolvePointer(document, schema['$ref']) as Schema)
    : schema;

/** The one rule the document says in words (a real calendar date): generated as one. */
const ENGINE_DATE = /^\^\\d\{4\}-/;

/** Values valid by `schema`, drawn by fast-check from its keywords, kept only if Ajv agrees. */
function valid(schemaOrRef: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(schemaOrRef);
  return draw(schema).filter((value) => contract.isValid(schema, value));
}

function draw(schema: Schema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  if ('const' in schema) return fc.constant(schema['const']);
  switch (schema['type']) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: (schema['minimum'] as number | undefined) ?? -1000,
        max: (schema['maximum'] as number | undefined) ?? 1000,
      });
    case 'number': {
      const maximum = (schema['maximum'] as number | undefined) ?? 1_000_000;
      const cents = Math.round(maximum * 100);
      // Small, whole, and any cent up to the maximum: where the boundaries are.
      return fc
        .oneof(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: cents }))
        .map((value) => value / 100)
        .chain((value) => fc.constantFrom(value, Math.max(0.01, Math.round(value))));
    }
    case 'string':
      return string(schema);
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
      const required = (schema['required'] ?? []) as string[];
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, valid(value)])),
        { requiredKeys: required },
      );
    }
    default:
      return fc.anything();
  }
}

function string(schema: Schema): fc.Arbitrary<string> {
  const minLength = (schema['minLength'] as number | undefined) ?? 0;
  const maxLength = Math.min((schema['maxLength'] as number | undefined) ?? 64, 300);
  const pattern = schema['pattern'] as string | undefined;
  if (pattern !== undefined && ENGINE_DATE.test(pattern)) {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z') })
      .map((date) => date.toISOString().slice(0, 19).replace('T', ' '));
  }
  if (schema['format'] === 'uri') return fc.webUrl({ withQueryParameters: true });
  if (pattern !== undefined) {
    return fc
      .stringMatching(new RegExp(pattern))
      .filter((value) => value.length >= minLength && value.length <= maxLength);
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme-ascii' });
}

/** One value that breaks one keyword of one field, that Ajv calls invalid. */
function broken(schemaOrRef: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(schemaOrRef);
  const properties = Object.entries((schema['properties'] ?? {}) as Record<string, Schema>);
  const required = (schema['required'] ?? []) as string[];
  return fc
    .tuple(valid(schema), fc.constantFrom(...properties), fc.nat())
    .map(([body, [key, field], pick]) => {
      const wrong = wrongValues(resolve(field), key, required.includes(key));
      const chosen = wrong[pick % wrong.length];
      const copy = { ...(body as Record<string, unknown>) };
      if (chosen === MISSING) delete copy[key];
      else copy[key] = chosen;
      return copy;
    })
    .filter((value) => !contract.isValid(schema, value));
}

const MISSING = Symbol('missing');

function wrongValues(field: Schema, key: string, required: boolean): unknown[] {
  const wrong: unknown[] = required ? [MISSING, null] : [null];
  switch (field['type']) {
    case 'number':
      wrong.push('1000', 0, -5, 10.005, ((field['maximum'] as number) ?? 1e9) + 1);
      break;
    case 'integer':
      wrong.push(1.5, '2', -1, 0);
      break;
    case 'boolean':
      wrong.push('true', 1);
      break;
    case 'string':
      wrong.push(42, '', 'x'.repeat(((field['maxLength'] as number) ?? 2048) + 1));
      if (field['pattern'] !== undefined) wrong.push('not a match', '2557', '255601234567');
      if (key === 'email') wrong.push('a@com', 'shop@', '@example.co.tz');
      break;
    case 'object':
      wrong.push('data', []);
      break;
  }
  return wrong;
}

interface Sent {
  status: number;
  body: unknown;
  problems: string[];
}

let harness: Harness;
const tokens: Record<string, string> = {};

async function login(product: keyof typeof accounts): Promise<string> {
  const prefix = product === 'collection' ? '/api/sandbox' : `/api/sandbox/${product}`;
  const answer = await fetch(`${harness.url}${prefix}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(accounts[product]),
  });
  return ((await answer.json()) as { token: string }).token;
}

beforeAll(async () => {
  harness = await startHarness({ loginLimits: false });
  for (const product of ['airtime', 'disbursement'] as const) {
    for (let i = 0; i < 5; i += 1) {
      await harness.control('wallets/credit', {
        product,
        email: accounts[product].email,
        amount: 1_000_000_000,
      });
    }
  }
  for (const product of ['collection', 'airtime', 'disbursement'] as const) {
    tokens[product] = await login(product);
  }
});
afterAll(() => harness.close());

const productOf = (operation: OpenApiOperation) => operation.tags[0] as keyof typeof accounts;

async function send(
  method: string,
  path: string,
  operation: OpenApiOperation,
  body: unknown,
  query = '',
): Promise<Sent> {
  const headers: Record<string, string> = {};
  if ((operation.security ?? []).some((entry) => 'bearerAuth' in entry)) {
    // Logout revokes the token it is sent with: each one gets its own.
    const token = operation.operationId.endsWith('Logout')
      ? await login(productOf(operation))
      : tokens[productOf(operation)];
    headers['authorization'] = `Bearer ${token}`;
  }
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const url = `${harness.url}${path}${query}`;
  const answer = await fetch(url, {
    method,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
  });
  const text = await answer.text();
  const problems = contract.checkAnswer(method, url, {
    status: answer.status,
    headers: answer.headers,
    text,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: answer.status, body: parsed, problems };
}

/** Every operation of the document, with the path a request takes. */
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OpenApiOperation>).map(([method, operation]) => ({
    path,
    method: method.toUpperCase(),
    operation,
  })),
);

/** Registration refuses a taken email (a state rule, not a field rule): each draw gets its own. */
let drawn = 0;
function unique(operationId: string, body: unknown): unknown {
  drawn += 1;
  if (!operationId.endsWith('Register') || typeof body !== 'object' || body === null) return body;
  const { email } = body as { email: string };
  return { ...body, email: email.replace(/^\s*/, (spaces) => `${spaces}u${drawn}_`) };
}

/** A request body, a path and a query string, as the operation takes them. */
function requestsOf(
  entry: (typeof operations)[number],
  kind: 'valid' | 'invalid',
): fc.Arbitrary<{ body: unknown; path: string; query: string }> | undefined {
  const { operation, path } = entry;
  const json = operation.requestBody?.content['application/json']?.schema as Schema | undefined;
  if (json !== undefined) {
    return (kind === 'valid' ? valid(json) : broken(json)).map((body) => ({
      body,
      path,
      query: '',
    }));
  }
  if (operation.requestBody?.content['multipart/form-data'] !== undefined) {
    return upload(kind).map((body) => ({ body, path, query: '' }));
  }
  const provider = operation.parameters?.find((parameter) => parameter.in === 'path');
  if (provider !== undefined) {
    const names =
      kind === 'valid' ? valid(provider.schema as Schema) : fc.constantFrom('mpesa', 'x');
    return names.map((name) => ({
      body: undefined,
      path: path.replace(`{${provider.name}}`, String(name)),
      query: '',
    }));
  }
  const query = operation.parameters?.filter((parameter) => parameter.in === 'query') ?? [];
  if (query.length > 0) {
    const object: Schema = {
      type: 'object',
      properties: Object.fromEntries(query.map((parameter) => [parameter.name, parameter.schema])),
      required: query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    };
    return (kind === 'valid' ? valid(object) : broken(object)).map((fields) => ({
      body: undefined,
      path,
      query: `?${deepObjectQuery(fields as Record<string, unknown>)}`,
    }));
  }
  return kind === 'valid' ? fc.constant({ body: undefined, path, query: '' }) : undefined;
}

function deepObjectQuery(fields: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== null && typeof value === 'object') {
      for (const [field, inner] of Object.entries(value))
        query.set(`${name}[${field}]`, String(inner));
    } else query.set(name, String(value));
  }
  return query.toString();
}

const payableMsisdn = fc.stringMatching(
  new RegExp(
    resolve(
      (document.components.schemas['AirtimePurchaseRequest'] as { properties: { msisdn: Schema } })
        .properties.msisdn,
    )['pattern'] as string,
  ),
);

/** A bulk upload: a CSV of valid rows and a batch_id by the document, or one rule broken. */
function upload(kind: 'valid' | 'invalid'): fc.Arbitrary<FormData> {
  const rows = fc.array(fc.tuple(payableMsisdn, fc.integer({ min: 1, max: 500_000 })), {
    minLength: 1,
    maxLength: 3,
  });
  const batchId = fc.stringMatching(/^[A-Za-z0-9_.-]{1,40}$/);
  const mistake = fc.constantFrom('no file', 'batch_id with a colon', 'batch_id too long');
  return fc.tuple(rows, batchId, mistake).map(([drawnRows, id, wrong]) => {
    const form = new FormData();
    const csv = `msisdn,amount\r\n${drawnRows.map(([m, a]) => `${m},${a / 100}`).join('\r\n')}\r\n`;
    drawn += 1;
    const unique = `${id}-${drawn}`;
    if (kind === 'valid') {
      form.set('batch_id', unique);
      form.set('file', new Blob([csv], { type: 'text/csv' }), 'rows.csv');
      return form;
    }
    if (wrong !== 'no file') form.set('file', new Blob([csv], { type: 'text/csv' }), 'rows.csv');
    form.set('batch_id', wrong === 'batch_id too long' ? 'b'.repeat(65) : `${id}:x`);
    return form;
  });
}

/** A form's fields for a failure message, a file shown as its name. */
const fieldsOf = (form: FormData) =>
  Array.from(form as unknown as Iterable<[string, unknown]>, ([key, value]) => [
    key,
    typeof value === 'string' ? value : 'file',
  ]);

/** The field names a 422 blames. */
const blamed = (body: unknown) => Object.keys((body as { errors?: object }).errors ?? {});

describe.each(operations)('$method $path ($operation.operationId)', (entry) => {
  it(`${RUNS} requests valid by the document: never a 5xx, never a 422 for a field, answers as documented`, async () => {
    const requests = requestsOf(entry, 'valid')!;
    const failures: string[] = [];
    for (const request of fc.sample(requests, { seed: SEED, numRuns: RUNS })) {
      const body = unique(entry.operation.operationId, request.body);
      const sent = await send(entry.method, request.path, entry.operation, body, request.query);
      const shown = `${JSON.stringify(body instanceof FormData ? fieldsOf(body) : body)}${request.query}`;
      if (sent.status >= 500) failures.push(`${shown} → ${sent.status}`);
      if (sent.status === 422) {
        failures.push(
          `${shown} → 422 for ${blamed(sent.body).join(', ')}: ${JSON.stringify(sent.body)}`,
        );
      }
      for (const problem of sent.problems) failures.push(`${shown} → ${problem}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  const invalid = requestsOf(entry, 'invalid');
  // An operation with no input (logout, user) has no request the document calls invalid.
  if (invalid === undefined) return;
  it(`${RUNS} requests invalid by the document: each refused with a documented 4xx`, async () => {
    const failures: string[] = [];
    for (const request of fc.sample(invalid, { seed: SEED, numRuns: RUNS })) {
      const sent = await send(
        entry.method,
        request.path,
        entry.operation,
        request.body,
        request.query,
      );
      const shown = `${JSON.stringify(request.body instanceof FormData ? fieldsOf(request.body) : request.body)}${request.query}`;
      if (sent.status < 400 || sent.status >= 500) failures.push(`${shown} → ${sent.status}`);
      for (const problem of sent.problems) failures.push(`${shown} → ${problem}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
