import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import {
  isAmbiguousOutcomeError,
  isConnectionError,
  isTimeoutError,
  RequestAbortedError,
} from '../../../src/errors/index.js';
import { closedPortUrl, type LocalServer, startServer } from './local-server.js';
import { airtimeUser, purchase, recordEvents } from './platform.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Deadlines leave the request time to reach the server on a loaded CI machine: the tests count
// what the server received, and a deadline that fires first would count 0.
function transport(baseUrl: string, timeoutMs = 2_000) {
  const t = new Transport({
    baseUrl,
    timeoutMs,
    maxRetries: 2,
    retryDelay: { minMs: 1, maxMs: 2 },
  });
  t.setToken('airtime', 'tok-1');
  return t;
}

describe('A money-moving request that may have reached the platform has an unknown outcome', () => {
  it('the server reads the purchase, then drops the connection: AmbiguousOutcomeError, sent once', async () => {
    server = await startServer((request) => request.socket.destroy());
    const t = transport(server.url);
    const events = recordEvents(t);
    const error = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    expect(isAmbiguousOutcomeError(error)).toBe(true);
    expect((error as Error).cause).toBeDefined();
    expect((error as Error).message).toMatch(/do not resend/);
    expect(server.received()).toBe(1);
    expect(events.retry).toHaveLength(0);
    expect(events.error[0]?.error).toBe(error);
  });

  it('the server resets the connection after reading: AmbiguousOutcomeError', async () => {
    server = await startServer((request) => request.socket.resetAndDestroy());
    const t = transport(server.url);
    const error = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    expect(isAmbiguousOutcomeError(error)).toBe(true);
    expect(server.received()).toBe(1);
  });

  it('the server never answers: the timeout is an AmbiguousOutcomeError, never retried', async () => {
    server = await startServer(() => undefined);
    const t = transport(server.url, 1_000);
    const error = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    expect(isAmbiguousOutcomeError(error)).toBe(true);
    expect(isTimeoutError((error as Error).cause)).toBe(true);
    expect(server.received()).toBe(1);
  });

  it('headers arrive but the body stalls: still ambiguous (the deadline covers the body)', async () => {
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"status":');
    });
    const t = transport(server.url, 1_000);
    const error = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    expect(isAmbiguousOutcomeError(error)).toBe(true);
  });

  it('a caller abort after the platform received the payment is ambiguous too', async () => {
    const controller = new AbortController();
    server = await startServer(() => controller.abort(new Error('user left')));
    const t = transport(server.url, 5_000);
    const pending = t.request('airtimePurchase', { body: purchase, signal: controller.signal });
    const error = await pending.catch((e: unknown) => e);
    expect(isAmbiguousOutcomeError(error)).toBe(true);
    expect((error as Error).cause).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ merchantReference: '' });
    expect(server.received()).toBe(1);
  });

  it('the merchantReference option is carried by the AmbiguousOutcomeError', async () => {
    server = await startServer((request) => request.socket.destroy());
    const t = transport(server.url);
    const error = await t
      .request('airtimePurchase', { body: purchase, merchantReference: 'order-77' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AmbiguousOutcomeError', merchantReference: 'order-77' });
    expect((error as Error).message).toContain('order-77');
    expect(server.received()).toBe(1);
  });
});

describe('A failure before any byte was sent is not ambiguous', () => {
  it('a payment whose signal was already aborted is not sent: RequestAbortedError', async () => {
    server = await startServer(() => undefined);
    const t = transport(server.url);
    const events = recordEvents(t);
    const signal = AbortSignal.abort(new Error('cancelled before sending'));
    const error = await t
      .request('airtimePurchase', { body: purchase, signal })
      .catch((e: unknown) => e);
    expect(isAmbiguousOutcomeError(error)).toBe(false);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as RequestAbortedError).reason).toEqual(new Error('cancelled before sending'));
    expect((error as Error).message).toContain('cancelled before sending');
    expect(server.received()).toBe(0);
    expect(events.request).toHaveLength(0);
    expect(events.error).toHaveLength(1);
  });

  it('nothing listening (connection refused): ConnectionError, not ambiguous', async () => {
    const t = transport(await closedPortUrl());
    const error = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    expect(isConnectionError(error)).toBe(true);
    expect(isAmbiguousOutcomeError(error)).toBe(false);
    expect((error as Error).message).toMatch(/ECONNREFUSED.*Nothing was sent/);
  });

  it('an unresolvable host (DNS): ConnectionError, not ambiguous', async () => {
    const fetchThatFailsDns: typeof fetch = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo ENOTFOUND pay.invalid'), {
            code: 'ENOTFOUND',
          }),
        }),
      );
    const t = new Transport({ baseUrl: 'http://pay.invalid', fetch: fetchThatFailsDns });
    t.setToken('airtime', 'tok-1');
    const error = await t.request('airtimePurchase', { body: purchase }).catch((e: unknown) => e);
    expect(isConnectionError(error)).toBe(true);
    expect(isAmbiguousOutcomeError(error)).toBe(false);
  });
});

describe('Operations that are not money-moving report transport failures plainly', () => {
  it('a safe read that times out is retried, then a TimeoutError', async () => {
    server = await startServer(() => undefined);
    const t = transport(server.url, 500);
    const events = recordEvents(t);
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
    expect(server.received()).toBe(3);
    expect(events.retry).toHaveLength(2);
  });

  it('a per-call timeoutMs overrides the default', async () => {
    server = await startServer(() => undefined);
    const t = transport(server.url, 60_000);
    const error = await t
      .request('airtimeUser', { timeoutMs: 50 })
      .catch((e: unknown) => e as { timeoutMs?: number });
    expect(isTimeoutError(error)).toBe(true);
    expect(error.timeoutMs).toBe(50);
  });

  it('a reset on a register (sent once, not money) is a ConnectionError', async () => {
    server = await startServer((request) => request.socket.destroy());
    const t = transport(server.url);
    const body = {
      name: 'Duka',
      email: 'a@b.co.tz',
      phone: '255744000001',
      password: 'longenough',
    };
    const error = await t.request('airtimeRegister', { body }).catch((e: unknown) => e);
    expect(isConnectionError(error)).toBe(true);
    expect(isAmbiguousOutcomeError(error)).toBe(false);
    expect(server.received()).toBe(1);
  });

  it('a read answered in time succeeds through a real socket', async () => {
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-9' });
      response.end(JSON.stringify({ user: airtimeUser }));
    });
    const t = transport(server.url);
    const events = recordEvents(t);
    await expect(t.request('airtimeUser')).resolves.toMatchObject({ user: { id: 7 } });
    expect(events.response[0]).toMatchObject({ status: 200, requestId: 'req-9', attempt: 1 });
  });
});
