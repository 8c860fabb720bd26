import { readFileSync } from 'node:fs';
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';
import { PESAKIT_VERSION } from '../../../src/core/user-agent.js';
import {
  isAmbiguousOutcomeError,
  isConnectionError,
  isTimeoutError,
} from '../../../src/errors/index.js';
import { type LocalServer, startServer } from './local-server.js';
import { airtimeUser, purchase } from './platform.js';

// Every call goes out through ky over fetch. These tests hold what arrives on the wire and what
// a broken answer becomes: pesakit's user agent, a connection cut mid-answer, the deadline over
// the body, and a global fetch someone replaced after pesakit loaded still being followed.

let server: LocalServer | undefined;
const fetchAtStart = globalThis.fetch;
afterEach(async () => {
  globalThis.fetch = fetchAtStart;
  await server?.close();
  server = undefined;
});

function transport(
  baseUrl: string,
  options: { timeoutMs?: number; headers?: Record<string, string> } = {},
) {
  const t = new Transport({
    baseUrl,
    timeoutMs: options.timeoutMs ?? 2_000,
    maxRetries: 1,
    retryDelay: { minMs: 1, maxMs: 2 },
    ...(options.headers ? { headers: options.headers } : {}),
  });
  t.setToken('airtime', 'tok-1');
  return t;
}

/** A server answering the airtime user with a fixed body, recording each request's headers. */
async function userServer(answer: (response: http.ServerResponse) => void) {
  const seen: http.IncomingHttpHeaders[] = [];
  server = await startServer((request, response) => {
    seen.push(request.headers);
    answer(response);
  });
  return { url: server.url, seen };
}

const userBody = JSON.stringify({ user: airtimeUser });

describe('Calls go out through ky over fetch', () => {
  it("sends pesakit's user agent", async () => {
    const { url, seen } = await userServer((response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(userBody),
    );
    await expect(transport(url).request('airtimeUser')).resolves.toMatchObject({
      user: { id: 7 },
    });
    expect(seen[0]?.['user-agent']).toBe(
      `pesakit/${PESAKIT_VERSION} node/${process.versions.node}`,
    );
    expect(seen[0]?.accept).toBe('application/json');
  });

  it("a merchant's configured user agent wins", async () => {
    const { url, seen } = await userServer((response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(userBody),
    );
    await transport(url, { headers: { 'User-Agent': 'duka/2.1' } }).request('airtimeUser');
    expect(seen[0]?.['user-agent']).toBe('duka/2.1');
  });

  it('the version in the user agent is the package version', () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    );
    expect(PESAKIT_VERSION).toBe(manifest.version);
  });

  it('a connection cut mid-answer fails a read as a connection error, and it is retried', async () => {
    let calls = 0;
    const { url } = await userServer((response) => {
      calls += 1;
      if (calls > 1) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(userBody);
        return;
      }
      // Promise a longer body than is sent, then cut the connection.
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      response.write(userBody.slice(0, 10), () => response.socket?.destroy());
    });
    const t = transport(url);
    const retried: unknown[] = [];
    t.events.on('retry', (event) => retried.push(event.error));
    await expect(t.request('airtimeUser')).resolves.toMatchObject({ user: { id: 7 } });
    expect(calls).toBe(2);
    expect(isConnectionError(retried[0])).toBe(true);
  });

  it('a money call whose answer is cut mid-body is ambiguous and sent once', async () => {
    let calls = 0;
    server = await startServer((_request, response) => {
      calls += 1;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      response.write('{"status":', () => response.socket?.destroy());
    });
    const error = await transport(server.url)
      .request('airtimePurchase', { body: purchase })
      .catch((e: unknown) => e);
    expect(isAmbiguousOutcomeError(error)).toBe(true);
    expect(calls).toBe(1);
  });

  it('the deadline covers the body: an answer that stalls after its headers times out', async () => {
    const { url } = await userServer((response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      response.write(userBody.slice(0, 10));
    });
    const t = new Transport({ baseUrl: url, timeoutMs: 300, maxRetries: 0 });
    t.setToken('airtime', 'tok-1');
    const error = await t.request('airtimeUser').catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
  });

  it('a global fetch replaced after pesakit loaded is followed, as the fetch option documents', async () => {
    const { url, seen } = await userServer((response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(userBody),
    );
    const through: string[] = [];
    globalThis.fetch = (input, init) => {
      through.push(String(input instanceof Request ? input.url : input));
      return fetchAtStart(input, init);
    };
    await transport(url).request('airtimeUser');
    expect(through).toEqual([`${url}/api/sandbox/airtime/user`]);
    expect(seen[0]?.['sec-fetch-mode']).toBe('cors');
  });
});
