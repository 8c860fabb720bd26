import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import {
  ConfigurationError,
  RequestAbortedError,
  TimeoutError,
} from '../../../src/errors/index.js';
import { type LocalServer, startServer } from './local-server.js';
import { airtimeUser } from './platform.js';

// What the hot-path work changed in behaviour (bench/sdk-overhead.mjs, docs/benchmarks.md):
// headers travel as a plain object checked up front, and the caller's signal is forwarded into
// the attempt's deadline instead of being merged with AbortSignal.any.

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const userAnswer = JSON.stringify({ user: airtimeUser });

describe('Headers are checked before anything is sent', () => {
  it('a malformed configured header is a ConfigurationError at construction, naming it', () => {
    const build = () =>
      new Transport({ baseUrl: 'http://127.0.0.1:9', headers: { 'x shop': 'duka' } });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/`headers\.x shop` is not a valid HTTP header/);
    try {
      build();
    } catch (error) {
      expect((error as ConfigurationError).option).toBe('headers.x shop');
    }
  });

  it('a malformed per-call header is refused before the request leaves', async () => {
    server = await startServer((_request, response) => response.end(userAnswer));
    const t = new Transport({ baseUrl: server.url });
    t.setToken('airtime', 'tok');
    const error = await t
      .request('airtimeUser', { headers: { 'x-trace': 'a\r\nb' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(server.received()).toBe(0);
  });

  it('sends configured, per-call and auth headers, later ones winning whatever their case', async () => {
    const seen: Record<string, string | string[] | undefined>[] = [];
    server = await startServer((request, response) => {
      seen.push(request.headers);
      response.end(userAnswer);
    });
    const t = new Transport({
      baseUrl: server.url,
      headers: { 'X-Shop': 'duka', 'X-Trace': 'configured' },
    });
    t.setToken('airtime', 'tok');
    await t.request('airtimeUser', {
      headers: { 'x-trace': 'per-call', Authorization: 'Bearer forged', ACCEPT: 'text/html' },
    });
    expect(seen[0]).toMatchObject({
      'x-shop': 'duka',
      'x-trace': 'per-call',
      authorization: 'Bearer tok',
      accept: 'application/json',
    });
  });
});

describe("The caller's signal and the deadline", () => {
  it('a long-lived signal shared by many calls keeps no listener from them', async () => {
    server = await startServer((_request, response) => response.end(userAnswer));
    const t = new Transport({ baseUrl: server.url });
    t.setToken('airtime', 'tok');
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) await t.request('airtimeUser', { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a caller abort in flight is a RequestAbortedError with the reason, not a timeout', async () => {
    const controller = new AbortController();
    server = await startServer(() => controller.abort(new Error('user left')));
    const t = new Transport({ baseUrl: server.url, maxRetries: 0, timeoutMs: 5_000 });
    t.setToken('airtime', 'tok');
    const error = await t
      .request('airtimeUser', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as Error).cause).toMatchObject({ message: 'user left' });
  });

  it('the deadline firing while the caller still waits is a TimeoutError', async () => {
    server = await startServer(() => {});
    const t = new Transport({ baseUrl: server.url, maxRetries: 0, timeoutMs: 150 });
    t.setToken('airtime', 'tok');
    const controller = new AbortController();
    const error = await t
      .request('airtimeUser', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(controller.signal.aborted).toBe(false);
  });
});
