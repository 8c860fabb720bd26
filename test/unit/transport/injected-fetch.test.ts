import { afterEach, describe, expect, it } from 'vitest';
import { Pesakit } from '../../../src/client.js';
import { Transport } from '../../../src/core/transport.js';
import { json, type RawServer, startRawServer } from '../../helpers/raw-server.js';
import { airtimeUser } from './platform.js';

// An injected fetch (TransportOptions.fetch) is often not Node's global fetch: the npm `undici`
// package's fetch behind a ProxyAgent, node-fetch, a test harness. Its Response is then another
// class than the global Response. Routed through ky, such an answer was not recognised
// (`instanceof Response`) and ky sent the request AGAIN with the global fetch — a money POST
// twice, the second around the caller's proxy. A real server counts what arrives.

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server answering each path with a fixed JSON body; `arrived()`: `METHOD path` of each request. */
async function serve(
  answers: Record<string, unknown>,
): Promise<{ url: string; arrived: () => string[] }> {
  const started = await startRawServer((request, response) => {
    const answer = answers[request.url ?? ''];
    json(response, answer === undefined ? 404 : 200, answer ?? { message: 'not found' });
  });
  server = started;
  return {
    url: started.url,
    arrived: () => started.requests.map(({ method, path }) => `${method} ${path}`),
  };
}

/** A Response of another fetch implementation: same shape, not the global class. */
class ForeignResponse {
  readonly #inner: Response;
  constructor(inner: Response) {
    this.#inner = inner;
  }
  get ok() {
    return this.#inner.ok;
  }
  get status() {
    return this.#inner.status;
  }
  get statusText() {
    return this.#inner.statusText;
  }
  get headers() {
    return this.#inner.headers;
  }
  get body() {
    return this.#inner.body;
  }
  text() {
    return this.#inner.text();
  }
  json() {
    return this.#inner.json();
  }
}

/** An injected fetch that sends through the global one and answers with a ForeignResponse. */
function foreignFetch(calls: string[]): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    calls.push(`${request.method} ${new URL(request.url).pathname}`);
    return new ForeignResponse(await fetch(request)) as unknown as Response;
  }) as typeof fetch;
}

const user = { id: 1, name: 'Duka', email: 'duka@example.co.tz' };

describe('An injected fetch whose Response is another class', () => {
  it('a money call is sent once, through the injected fetch only', async () => {
    const { url, arrived } = await serve({
      '/api/sandbox/login': { token: 'tok-1', token_type: 'Bearer', user },
      '/api/sandbox/initiate-payment/mno/': {
        message: 'Payment request sent',
        status: 'pending',
        controlNumber: '991234567890',
        reference: 'PSK-REF-0001',
        amount: 15000,
      },
    });
    const calls: string[] = [];
    const pesakit = new Pesakit({
      baseUrl: url,
      environment: 'sandbox',
      credentials: { collection: { email: 'duka@example.co.tz', password: 'secret-pass' } },
      fetch: foreignFetch(calls),
    });

    const answer = await pesakit.collection.initiateMno({
      amount: 15000,
      msisdn: '255754123456',
      callback_url: 'https://shop.example.co.tz/paid',
    });

    expect(answer.record.status).toBe('pending');
    expect(answer.record.controlNumber).toBe('991234567890');
    expect(calls).toEqual(['POST /api/sandbox/login', 'POST /api/sandbox/initiate-payment/mno/']);
    expect(arrived()).toEqual(calls);
  });

  it('a retried safe call: each attempt sent once, through the injected fetch only', async () => {
    const { url, arrived } = await serve({ '/api/sandbox/airtime/user': { user: airtimeUser } });
    const calls: string[] = [];
    const forward = foreignFetch(calls);
    // The first attempt is answered 503 by the injected fetch itself; the transport retries the
    // safe call, and attempt 2 takes the retried route.
    let attempts = 0;
    const transport = new Transport({
      baseUrl: url,
      environment: 'sandbox',
      retryDelay: { minMs: 1, maxMs: 5 },
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        attempts += 1;
        if (attempts > 1) return forward(input, init);
        calls.push('503 from the injected fetch');
        const busy = new Response(JSON.stringify({ message: 'try again' }), { status: 503 });
        return new ForeignResponse(busy) as unknown as Response;
      }) as typeof fetch,
    });
    transport.setToken('airtime', 'tok-1');

    const answer = await transport.request('airtimeUser');

    expect(answer.user.email).toBe(airtimeUser.email);
    expect(calls).toEqual(['503 from the injected fetch', 'GET /api/sandbox/airtime/user']);
    expect(arrived()).toEqual(['GET /api/sandbox/airtime/user']);
  });
});
