import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helmetOptions } from '../../src/sandbox/http/security-headers.js';
import { bearer, type RunningSandbox, startSandbox } from './support.js';

// The sandbox reads @fastify/helmet's headers once at start-up instead of letting the plugin
// rebuild them on every request. These tests hold it to exactly what the plugin sets, on every
// kind of answer.

let s: RunningSandbox;
let expected: Record<string, string>;

/** What @fastify/helmet itself sets with the sandbox's options, on a bare app. */
async function pluginHeaders(): Promise<Record<string, string>> {
  const app = Fastify();
  await app.register(helmet, helmetOptions('/api/sandbox'));
  app.get('/', async () => ({ ok: true }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const response = await fetch(url);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['content-type', 'content-length', 'date', 'connection', 'keep-alive'].includes(name)) {
        headers[name] = value;
      }
    });
    return headers;
  } finally {
    await app.close();
  }
}

function securityHeadersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(expected)) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

beforeAll(async () => {
  expected = await pluginHeaders();
  s = await startSandbox();
});
afterAll(() => s.close());

describe('security headers', () => {
  it('the plugin sets the headers the checkout page relies on (the reference is meaningful)', () => {
    expect(expected['x-frame-options']).toBe('DENY');
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(expected['referrer-policy']).toBe('no-referrer');
    expect(expected['x-content-type-options']).toBe('nosniff');
    expect(expected['strict-transport-security']).toBeUndefined();
  });

  it('are exactly the plugin’s on a success, a 401, a 404, a 415, a 400 and the checkout page', async () => {
    const token = await s.account('collection', 'headers@example.tz');
    const opened = await s.call(
      'POST',
      '/api/sandbox/initiate-payment/mno/',
      { amount: 1000, msisdn: '255754000998' },
      bearer(token),
    );
    expect(opened.status).toBe(200);
    const secure = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
      amount: 1000,
      callback_url: 'http://127.0.0.1:9/return',
    });
    expect(secure.status).toBe(200);
    const paymentUrl = (secure.body as { payment_url: string }).payment_url;
    const answers = [
      await s.call('POST', '/api/sandbox/transaction/status', { ref_id: 'x' }, bearer(token)),
      await s.call('POST', '/api/sandbox/transaction/status', { ref_id: 'x' }),
      await s.call('GET', '/api/sandbox/no-such-route'),
      await s.call('POST', '/api/sandbox/transaction/status', 'ref_id=x', {
        'content-type': 'text/plain',
      }),
      await s.call('POST', '/api/sandbox/transaction/status', '{not json', {
        'content-type': 'application/json',
      }),
      await s.call('GET', new URL(paymentUrl).pathname),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 401, 404, 415, 400, 200]);
    for (const answer of answers) expect(securityHeadersOf(answer.headers)).toEqual(expected);
  });
});
