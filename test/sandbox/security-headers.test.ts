import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SECURITY_HEADERS, helmetOptions } from '../../src/sandbox/http/security-headers.js';
import { bearer, type RunningSandbox, startSandbox } from './support.js';

// JSON answers carry the API set (OWASP REST: no script or style policy, not frameable, nosniff);
// the checkout page, the one HTML document, carries exactly what @fastify/helmet sets for it.

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

/** The headers of `headers` that either set names (so a page header on a JSON answer shows). */
function securityHeadersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of new Set([...Object.keys(expected), ...Object.keys(API_SECURITY_HEADERS)])) {
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

  it('JSON answers carry exactly the API set: a success, a 401, a 404, a 415 and a 400', async () => {
    const token = await s.account('collection', 'headers@example.tz');
    const opened = await s.call(
      'POST',
      '/api/sandbox/initiate-payment/mno/',
      { amount: 1000, msisdn: '255754000998' },
      bearer(token),
    );
    expect(opened.status).toBe(200);
    const answers = [
      opened,
      await s.call('POST', '/api/sandbox/transaction/status', { ref_id: 'x' }, bearer(token)),
      await s.call('POST', '/api/sandbox/transaction/status', { ref_id: 'x' }),
      await s.call('GET', '/api/sandbox/no-such-route'),
      await s.call('POST', '/api/sandbox/transaction/status', 'ref_id=x', {
        'content-type': 'text/plain',
      }),
      await s.call('POST', '/api/sandbox/transaction/status', '{not json', {
        'content-type': 'application/json',
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 401, 404, 415, 400]);
    for (const answer of answers) {
      expect(securityHeadersOf(answer.headers)).toEqual(API_SECURITY_HEADERS);
    }
    expect(API_SECURITY_HEADERS['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(API_SECURITY_HEADERS['x-frame-options']).toBe('DENY');
    expect(API_SECURITY_HEADERS['x-content-type-options']).toBe('nosniff');
  });

  it('the checkout page carries exactly the plugin’s headers, an unknown token’s 404 too', async () => {
    const secure = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
      amount: 1000,
      callback_url: 'http://127.0.0.1:9/return',
    });
    expect(secure.status).toBe(200);
    const paymentUrl = (secure.body as { payment_url: string }).payment_url;
    const page = await s.call('GET', new URL(paymentUrl).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(securityHeadersOf(page.headers)).toEqual(expected);
    const unknown = await s.call('GET', '/api/sandbox/checkout/no-such-token');
    expect(unknown.status).toBe(404);
    expect(securityHeadersOf(unknown.headers)).toEqual(expected);
  });
});

// Every kind of answer gets one request id and its headers, delayed by the latency fault.
describe('one hook for headers, request id and latency', () => {
  it('answers from a handler, a hook refusal and the page each carry one request id and their headers, delayed by the fault', async () => {
    const token = await s.account('collection', 'one-hook@example.tz');
    const secure = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
      amount: 1000,
      callback_url: 'http://127.0.0.1:9/return',
    });
    const pagePath = new URL((secure.body as { payment_url: string }).payment_url).pathname;
    const ids = new Set<string>();
    try {
      expect((await s.control('faults', { latencyMs: 300 })).status).toBe(200);
      const timed = async (call: Promise<Awaited<ReturnType<typeof s.call>>>) => {
        const started = performance.now();
        const answer = await call;
        return { answer, elapsed: performance.now() - started };
      };
      const status = await timed(
        s.call('POST', '/api/sandbox/transaction/status', { ref_id: 'x' }, bearer(token)),
      );
      const page = await timed(s.call('GET', pagePath));
      // The control API's own onRequest hook refuses a forged request before any handler runs.
      const refused = await s.call('POST', '/api/sandbox/_control/faults', '{}', {
        'content-type': 'text/plain',
      });
      expect(status.answer.status).toBe(404);
      expect(status.elapsed).toBeGreaterThanOrEqual(290);
      expect(securityHeadersOf(status.answer.headers)).toEqual(API_SECURITY_HEADERS);
      expect(page.answer.status).toBe(200);
      expect(page.elapsed).toBeGreaterThanOrEqual(290);
      expect(securityHeadersOf(page.answer.headers)).toEqual(expected);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(securityHeadersOf(refused.headers)).toEqual(API_SECURITY_HEADERS);
      for (const answer of [status.answer, page.answer, refused]) {
        const id = answer.headers.get('x-request-id');
        expect(id).toMatch(/^req_[0-9a-f-]{36}$/);
        ids.add(id ?? '');
      }
      expect(ids.size).toBe(3);
    } finally {
      await s.control('faults', { latencyMs: 0 });
    }
  });
});
