import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostGuard } from '../../src/internal/host-guard.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { PASSWORD, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
afterEach(() => s.close());

/** One request over a real socket, with the Host and Origin headers exactly as given. */
function raw(
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: { message?: string } }> {
  const url = new URL(s.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const start = async (options: SandboxOptions = {}) => {
  s = await startSandbox(options);
  await s.account('disbursement', 'ops@duka.tz', 500);
};

const foreign = (port: string) => ({
  host: `evil.example:${port}`,
  origin: `http://evil.example:${port}`,
});

describe('DNS rebinding: the control API answers loopback host names and listed ones only', () => {
  it('refuses wallet credit, password change, faults and reset under a foreign Host and Origin (403), changing nothing', async () => {
    await start();
    const headers = foreign(new URL(s.url).port);
    const before = s.sandbox.inspect.snapshot();
    const attempts: [string, unknown][] = [
      ['wallets/credit', { product: 'disbursement', email: 'ops@duka.tz', amount: 1_000_000 }],
      ['accounts', { product: 'disbursement', email: 'ops@duka.tz', password: 'taken-over-1' }],
      ['faults', { latencyMs: 5000 }],
      ['reset', {}],
    ];
    for (const [path, body] of attempts) {
      const answer = await raw(`/api/sandbox/_control/${path}`, headers, body);
      expect(answer.status, path).toBe(403);
      expect(answer.body.message).toContain('"evil.example:');
      expect(answer.body.message).toContain('allowedHosts');
      expect(answer.body.message).toContain('--allowed-host');
    }
    expect((await raw('/api/sandbox/_control/sms', headers)).status).toBe(403);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
    expect(s.sandbox.inspect.faults()).toEqual({});
    const login = await s.call('POST', '/api/sandbox/disbursement/login', {
      email: 'ops@duka.tz',
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
  });

  it('refuses a foreign Origin even when the Host is loopback', async () => {
    await start();
    const port = new URL(s.url).port;
    const answer = await raw(
      '/api/sandbox/_control/faults',
      { host: `127.0.0.1:${port}`, origin: 'http://evil.example' },
      { latencyMs: 5000 },
    );
    expect(answer.status).toBe(403);
    expect(answer.body.message).toContain('Origin "http://evil.example"');
    expect(s.sandbox.inspect.faults()).toEqual({});
  });

  it('answers every loopback spelling, with or without the port', async () => {
    await start();
    const port = new URL(s.url).port;
    for (const host of [
      'localhost',
      `localhost:${port}`,
      '127.0.0.1',
      `127.0.0.2:${port}`,
      '[::1]',
      `[::1]:${port}`,
    ]) {
      expect((await raw('/api/sandbox/_control/sms', { host })).status, host).toBe(200);
    }
    const same = await raw(
      '/api/sandbox/_control/faults',
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      { latencyMs: 0 },
    );
    expect(same.status).toBe(200);
  });

  it('answers a name listed in allowedHosts, and only that one', async () => {
    await start({ allowedHosts: ['Sandbox.Internal'] });
    const port = new URL(s.url).port;
    expect(
      (await raw('/api/sandbox/_control/sms', { host: `sandbox.internal:${port}` })).status,
    ).toBe(200);
    expect((await raw('/api/sandbox/_control/sms', { host: 'other.internal' })).status).toBe(403);
  });

  it('leaves the platform routes alone: a foreign Host still reaches the product API', async () => {
    await start();
    const answer = await raw('/api/sandbox/login', foreign('1'), {
      email: 'x@duka.tz',
      password: 'p',
    });
    expect(answer.status).toBe(401);
  });

  it('allowedHosts refuses an entry with a port or a path, naming the rule', async () => {
    await expect(startSandbox({ allowedHosts: ['sandbox:4010'] })).rejects.toThrow(
      /allowedHosts\.0: each allowed host must be a host name without a port/,
    );
    s = await startSandbox();
  });
});

describe('the host guard on its own', () => {
  const guard = createHostGuard(['ops.local'], 'list it');
  it.each([
    ['127.1:80', undefined, true],
    ['LOCALHOST', 'http://localhost:5173', true],
    ['ops.local:8080', 'https://ops.local', true],
    [undefined, undefined, false],
    ['evil.example', undefined, false],
    ['localhost', 'null', false],
    ['localhost', 'http://127.0.0.1.evil.example', false],
    ['user@localhost', undefined, false],
  ])('Host %s, Origin %s → allowed: %s', (host, origin, allowed) => {
    expect(guard.refusal(host, origin) === undefined).toBe(allowed);
  });
});
