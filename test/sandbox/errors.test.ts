import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/schemas/error-body.js';
import { bearer, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
let token: string;
beforeAll(async () => {
  s = await startSandbox();
  token = await s.account('disbursement', 'err@duka.tz', 1000);
});
afterAll(() => s.close());

async function raw(path: string, init: RequestInit) {
  const response = await fetch(`${s.url}${path}`, init);
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('errors: Laravel-style bodies; malformed JSON, wrong types, huge bodies, unknown routes are 4xx, never 5xx', () => {
  it('answers malformed JSON with 400 {message}', async () => {
    const answer = await raw('/api/sandbox/disbursement/payment', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: '{"msisdn": "2557',
    });
    expect(answer.status).toBe(400);
    expect(errorBodySchema.parse(answer.body).message).toMatch(/not valid JSON/);
  });

  it('answers a non-JSON content type with 415 {message}', async () => {
    const answer = await raw('/api/sandbox/login', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'email=a@b.tz',
    });
    expect(answer.status).toBe(415);
    expect(errorBodySchema.parse(answer.body).message).toMatch(/application\/json/);
  });

  it('answers a body over 1 MiB with 413 {message}', async () => {
    const answer = await raw('/api/sandbox/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(1024 * 1024 + 10), password: 'p' }),
    });
    expect(answer.status).toBe(413);
    expect(errorBodySchema.parse(answer.body).message).toMatch(/1 MiB/);
  });

  it('answers an unknown route with 404 {message}', async () => {
    const answer = await raw('/api/sandbox/refunds', { method: 'POST' });
    expect(answer.status).toBe(404);
    expect(errorBodySchema.parse(answer.body).message).toMatch(/No route/);
  });

  it('answers wrong types with 422 {message, errors} naming each field', async () => {
    const answer = await s.call(
      'POST',
      '/api/sandbox/disbursement/payment',
      { msisdn: [], amount: {}, name: 7 },
      bearer(token),
    );
    expect(answer.status).toBe(422);
    expect(Object.keys((answer.body as { errors: object }).errors).sort()).toEqual([
      'amount',
      'msisdn',
      'name',
    ]);
  });

  it('answers a JSON body that is not an object with 422 under "body"', async () => {
    const answer = await s.call(
      'POST',
      '/api/sandbox/disbursement/payment',
      '[1,2]',
      bearer(token),
    );
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      errors: { body: ['The request body must be a JSON object.'] },
    });
  });
});

describe('disbursement errors section: every status code', () => {
  it('400 invalid MSISDN / unsupported provider, 401 missing token, 422 validation and insufficient balance', async () => {
    const pay = (body: unknown, headers = bearer(token)) =>
      s.call('POST', '/api/sandbox/disbursement/payment', body, headers);
    expect((await pay({ msisdn: '12345', amount: 10, name: 'x' })).status).toBe(400);
    expect((await pay({ msisdn: '255801234567', amount: 10, name: 'x' })).status).toBe(400);
    expect((await pay({ msisdn: '255754123456', amount: 10, name: 'x' }, {})).status).toBe(401);
    expect((await pay({ msisdn: '255754123456', name: 'x' })).status).toBe(422);
    expect((await pay({ msisdn: '255754123456', amount: 950, name: 'x' })).body).toMatchObject({
      code: 'insufficient_funds',
    });
  });
});
