import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { ApiError } from '../../src/errors/api-error.js';
import { field, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(() => s.close());

const postRaw = (path: string, body: string, headers: Record<string, string> = {}) =>
  s.call('POST', path, body, { 'content-type': 'application/json', ...headers });

describe('JSON bodies: prototype-poisoning keys are refused with a 400 that names them', () => {
  it.each([
    ['__proto__ at the top', '{"email":"a@b.tz","password":"x","__proto__":{"admin":true}}'],
    ['__proto__ nested', '{"email":"a@b.tz","password":"x","extra":{"__proto__":{"x":1}}}'],
    [
      'constructor.prototype',
      '{"email":"a@b.tz","password":"x","constructor":{"prototype":{"x":1}}}',
    ],
    ['inside an array', '[{"__proto__":{"x":1}}]'],
    // The walk runs only when the text could hold such a key: spelt with \u escapes, it can.
    ['__proto__ spelt with \\u escapes', '{"email":"a@b.tz","\\u005f_pro\\u0074o__":{"x":1}}'],
    [
      'constructor spelt with \\u escapes',
      '{"email":"a@b.tz","\\u0063onstructor":{"prototype":{"x":1}}}',
    ],
  ])('%s → 400', async (_name, body) => {
    const before = s.sandbox.inspect.snapshot();
    const answer = await postRaw('/api/sandbox/login', body);
    expect(answer.status).toBe(400);
    expect(field(answer, 'message')).toMatch(/__proto__.*constructor\.prototype/);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
  });

  it('still accepts an ordinary "constructor" key and still says "not valid JSON" for bad JSON', async () => {
    const plain = await postRaw(
      '/api/sandbox/login',
      '{"email":"a@b.tz","password":"x","constructor":1}',
    );
    expect(plain.status).toBe(401);
    const broken = await postRaw('/api/sandbox/login', '{"email":');
    expect(broken.status).toBe(400);
    expect(field(broken, 'message')).toMatch(/not valid JSON/);
    const nul = await postRaw('/api/sandbox/login', 'null');
    expect(nul.status).toBe(422);
  });
});

describe('x-request-id on every response', () => {
  it('is on successes, 4xx of every kind, the checkout page and the control API — unique each time', async () => {
    const checkout = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
      amount: 1000,
      callback_url: 'http://127.0.0.1:9/return',
    });
    const token = field(checkout, 'payment_token') as string;
    const answers = [
      checkout,
      await s.call('GET', `/api/sandbox/checkout/${token}`),
      await s.call('POST', '/api/sandbox/merchant/test-airtel'),
      await postRaw('/api/sandbox/login', '{bad'),
      await s.call('POST', '/api/sandbox/login', 'x', { 'content-type': 'text/plain' }),
      await s.call('POST', '/api/sandbox/login', { email: 'nobody@x.tz', password: 'p' }),
      await s.call('GET', '/api/sandbox/no-such-route'),
      await s.control('faults', undefined, 'GET'),
    ];
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is what the SDK error reads as requestId, and a caller cannot choose it', async () => {
    const forged = await fetch(`${s.url}/api/sandbox/merchant/test-airtel`, {
      method: 'POST',
      headers: { 'x-request-id': 'forged' },
    });
    expect(forged.headers.get('x-request-id')).toMatch(/^req_/);
    const pesakit = new Pesakit({
      environment: 'sandbox',
      baseUrl: s.url,
      credentials: { collection: { email: 'nobody@duka.tz', password: 'wrong-password' } },
    });
    const error = await pesakit.collection.login().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).requestId).toMatch(/^req_[0-9a-f-]{36}$/);
  });
});
