import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Transport } from '../../../src/core/transport.js';

// A retried attempt must put on the wire exactly what the first one did, through Node's own
// global fetch or one replaced after pesakit loaded. A real server on a loopback port records each request as it arrived —
// method, URL, headers, body — and fails the first attempt with a 503, which the transport
// retries for a safe call.

interface Arrived {
  method: string | undefined;
  url: string | undefined;
  headers: Record<string, string>;
  body: string;
}

const transaction = {
  controlNumber: '991234567890',
  reference: 'PSK-REF-0001',
  external_reference: null,
  channel: 'mno',
  amount: 15000,
  msisdn: '255754123456',
  provider: 'vodacom',
  status: 'pending',
  transactionID: null,
  paid_amount: null,
  created_at: '2026-11-23T10:00:00Z',
  updated_at: '2026-11-23T10:00:00Z',
};

let server: http.Server | undefined;
const fetchAtStart = globalThis.fetch;
afterEach(async () => {
  globalThis.fetch = fetchAtStart;
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise<void>((resolve) => running.close(() => resolve()));
});

/** A server that answers 503 to the first request and 200 with `answer` after; records all. */
async function failingOnce(answer: unknown): Promise<{ url: string; arrived: Arrived[] }> {
  const arrived: Arrived[] = [];
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // Header names as they arrived, in lower case (Node joins repeated ones).
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      const body = Buffer.concat(chunks).toString('utf8');
      arrived.push({ method: request.method, url: request.url, headers, body });
      const first = arrived.length === 1;
      response.writeHead(first ? 503 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(first ? { message: 'try again' } : answer));
    });
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const { port } = listening.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, arrived };
}

describe('A retried attempt sends exactly what the first attempt sent', () => {
  it.each([
    ['the global fetch', () => undefined],
    [
      'a replaced global fetch',
      () => {
        globalThis.fetch = (input, init) => fetchAtStart(input, init);
      },
    ],
  ])(
    'a safe POST answered 503, then 200: same method, URL, headers and body both times (%s)',
    async (_route, route) => {
      route();
      const { url, arrived } = await failingOnce({
        message: 'Transaction found',
        data: transaction,
      });
      const transport = new Transport({
        baseUrl: url,
        environment: 'sandbox',
        headers: { 'X-Shop': 'duka-1' },
        retryDelay: { minMs: 1, maxMs: 5 },
      });
      transport.setToken('collection', 'tok-1');
      const events: Array<{ attempt: number }> = [];
      transport.events.on('request', (event) => events.push(event));

      const answer = await transport.request('collectionStatus', {
        body: { ref_id: '991234567890' },
        headers: { 'X-Correlation-Id': 'corr-7' },
      });

      expect(answer.data.controlNumber).toBe('991234567890');
      expect(events.map((event) => event.attempt)).toEqual([1, 2]);
      expect(arrived).toHaveLength(2);
      const [first, retried] = arrived as [Arrived, Arrived];
      expect(first.method).toBe('POST');
      expect(first.url).toBe('/api/sandbox/transaction/status');
      expect(JSON.parse(first.body)).toEqual({ ref_id: '991234567890' });
      expect(first.headers).toMatchObject({
        authorization: 'Bearer tok-1',
        'content-type': 'application/json',
        accept: 'application/json',
        'x-shop': 'duka-1',
        'x-correlation-id': 'corr-7',
        'content-length': String(Buffer.byteLength(first.body)),
      });
      // Every header, not just the ones above: nothing added, dropped or changed on the retry
      // (no chunked body where the first had a length, no other user agent).
      expect(retried).toEqual(first);
    },
  );
});
