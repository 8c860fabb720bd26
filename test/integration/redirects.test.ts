import { afterEach, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { isAmbiguousOutcomeError, isApiError } from '../../src/errors/index.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { json, type RawServer, startRawServer } from '../helpers/raw-server.js';

// pesakit follows no redirect (`redirect: 'manual'`): a money call sent again to another
// address could pay twice, and Node's fetch would turn a redirected POST into a GET. A server
// may also answer a POST it processed with 303 (post/redirect/get): a redirected money call is
// therefore `unknown` (an AmbiguousOutcomeError), never `failed`, and nothing is sent to the
// Location.

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const login = {
  token: 'tok-1',
  token_type: 'Bearer',
  user: { id: 1, name: 'Duka', email: 'd@duka.tz' },
};

async function redirectingPlatform(status: number) {
  server = await startRawServer((request, response) => {
    if (request.url === '/api/sandbox/login') return json(response, 200, login);
    response.writeHead(status, {
      location: `${'https://pay.example.tz'}${request.url}?token=secret-1`,
    });
    response.end();
  });
  return server;
}

function client(url: string) {
  const store = new MemoryReferenceStore();
  const pesakit = new Pesakit({
    baseUrl: url,
    environment: 'sandbox',
    credentials: { collection: { email: 'd@duka.tz', password: 'secret-pass' } },
    store,
  });
  return { pesakit, store };
}

describe('A redirect is never followed', () => {
  it('a money call answered 303: ambiguous, naming the Location, the record unknown, sent once', async () => {
    const platform = await redirectingPlatform(303);
    const { pesakit, store } = client(platform.url);
    const error = await pesakit.collection
      .initiateMno(
        {
          amount: 15_000,
          msisdn: '255754123456',
          callback_url: 'https://shop.example.co.tz/paid',
        },
        { merchantReference: 'order-303' },
      )
      .catch((e: unknown) => e);
    expect(isAmbiguousOutcomeError(error)).toBe(true);
    const cause = (error as Error).cause;
    expect(isApiError(cause)).toBe(true);
    expect((cause as { status: number }).status).toBe(303);
    expect((error as Error).message).toContain(
      'redirect to https://pay.example.tz/api/sandbox/initiate-payment/mno/ that pesakit does not follow',
    );
    expect((cause as Error).message).toContain(
      'redirect to https://pay.example.tz/api/sandbox/initiate-payment/mno/,',
    );
    expect((error as Error).message + (cause as Error).message).not.toContain('secret-1');
    const record = await store.records.get('order-303');
    expect(record?.status).toBe('unknown');
    expect(record?.statusReason).toBe('redirected with 303: outcome unknown');
    expect(platform.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/sandbox/login',
      'POST /api/sandbox/initiate-payment/mno/',
    ]);
  });

  it('a status call answered 301: an ApiError telling to fix the base URL, not retried', async () => {
    const platform = await redirectingPlatform(301);
    const { pesakit } = client(platform.url);
    const error = await pesakit.collection.status('991234567890').catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    expect((error as Error).message).toMatch(/does not follow: set the base URL/);
    expect(platform.requests.filter((r) => r.path.endsWith('/transaction/status'))).toHaveLength(1);
  });
});
