import { describe, expect, it } from 'vitest';
import { Pesakit } from '../../../src/client.js';
import { isConfigurationError } from '../../../src/errors/index.js';

// In production the password and every bearer token cross the wire: over http:// they would
// travel in clear. Refused when the client is built, before any request, unless the merchant
// opts in — and the opt-in reaches only a loopback address (a TLS-terminating proxy on the same
// host).

const credentials = { collection: { email: 'shop@example.tz', password: 'collect-secret-1' } };

function build(collection: string, allowInsecureHttp?: boolean) {
  const requests: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    requests.push(String(input instanceof Request ? input.url : input));
    return new Response('{}');
  };
  let thrown: unknown;
  try {
    new Pesakit({
      environment: 'production',
      baseUrls: { collection },
      credentials,
      fetch,
      ...(allowInsecureHttp === undefined ? {} : { allowInsecureHttp }),
    });
  } catch (error) {
    thrown = error;
  }
  return { thrown, requests };
}

describe('production refuses http:// base URLs', () => {
  it('http:// to a remote host: a ConfigurationError naming the option, nothing sent', () => {
    const { thrown, requests } = build('http://pay.example.tz');
    expect(isConfigurationError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'configuration_error', option: 'baseUrls.collection' });
    expect((thrown as Error).message).toMatch(/in clear.*allowInsecureHttp/);
    expect(requests).toEqual([]);
  });

  it('http:// to loopback is refused too without the opt-in', () => {
    expect(isConfigurationError(build('http://127.0.0.1:8443').thrown)).toBe(true);
  });

  it.each(['http://127.0.0.1:8443', 'http://localhost:8443', 'http://[::1]:8443'])(
    'allowInsecureHttp allows %s',
    (url) => {
      expect(build(url, true).thrown).toBeUndefined();
    },
  );

  it('allowInsecureHttp still refuses http:// to any other host', () => {
    const { thrown } = build('http://10.0.0.5:8080', true);
    expect(isConfigurationError(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/only to a loopback address/);
  });

  it('https:// needs no opt-in, and the sandbox environment is not concerned', () => {
    expect(build('https://pay.example.tz').thrown).toBeUndefined();
    expect(() => new Pesakit({ baseUrl: 'http://10.0.0.5:4010', credentials })).not.toThrow();
  });
});
