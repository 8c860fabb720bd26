import { describe, expect, it } from 'vitest';
import { isConfigurationError, Pesakit } from '../../src/index.js';

// A base URL is an origin with an optional path prefix. With a query string or a fragment,
// every request path would land inside it — `http://host/?x=1` would send the login (and a
// payment) to `http://host/?x=1/api/sandbox/login`, found only when a call is made (a money
// call after its intent was written) — so it is a ConfigurationError at construction.

describe('a base URL with a query string or a fragment', () => {
  it.each([
    ['baseUrl', { baseUrl: 'http://127.0.0.1:4010?api_key=s3cret' }],
    ['baseUrl', { baseUrl: 'http://127.0.0.1:4010/#top' }],
  ] as const)('%s is refused at construction', (option, urls) => {
    let thrown: unknown;
    try {
      new Pesakit({ environment: 'sandbox', ...urls });
    } catch (error) {
      thrown = error;
    }
    expect(isConfigurationError(thrown)).toBe(true);
    expect((thrown as { option: string }).option).toBe(option);
    expect((thrown as Error).message).toMatch(/query|fragment/);
    expect((thrown as Error).message).toContain('http://127.0.0.1:4010');
    expect((thrown as Error).message).not.toContain('s3cret');
  });

  it('baseUrls.<product> too', () => {
    expect(
      () =>
        new Pesakit({
          environment: 'production',
          baseUrls: { collection: 'https://pay.example.tz/?a=b' },
          credentials: { collection: { email: 'shop@example.tz', password: 'p' } },
        }),
    ).toThrow(/baseUrls\.collection/);
  });

  it('a path prefix is still fine', async () => {
    const seen: string[] = [];
    const pesakit = new Pesakit({
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:9/platform',
      credentials: { collection: { email: 'shop@example.tz', password: 'p' } },
      maxRetries: 0,
      fetch: async (input) => {
        seen.push(input instanceof Request ? input.url : String(input));
        return new Response('{"message":"no"}', {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    await pesakit.collection.status('990000000000').catch(() => undefined);
    expect(seen[0]).toBe('http://127.0.0.1:9/platform/api/sandbox/login');
  });
});
