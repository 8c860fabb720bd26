import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/internal/redaction.js';
import { secretSpellings } from './fixtures/secret-spellings.js';

const root = new URL('../../', import.meta.url);

function run(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe("the sandbox's log never carries a checkout's payment token", () => {
  it('logs the checkout URLs a customer opens with the token redacted', async () => {
    const { code, stdout, stderr } = await run('test/sandbox/fixtures/logged-checkout.ts');
    expect(code, stderr).toBe(0);
    const token = /token (\S+)/.exec(stderr)?.[1];
    expect(token).toBeTruthy();
    const requests = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { req?: { url?: string } })
      .flatMap((line) => (line.req?.url ? [line.req.url] : []));
    expect(requests).toContain('/api/sandbox/checkout/[redacted]');
    expect(requests).toContain('/api/sandbox/checkout/[redacted]/status?x=1');
    expect(requests.filter((url) => url.endsWith('/checkout/[redacted]'))).toHaveLength(3);
    expect(requests).toContain('/api/sandbox/CHECKOUT/[redacted]/status');
    expect(stdout).not.toContain(token);
  }, 30_000);

  it('redacts every checkout segment, and nothing else', () => {
    expect(redactUrl('/api/sandbox/checkout/abc123/card')).toBe(
      '/api/sandbox/checkout/[redacted]/card',
    );
    expect(redactUrl('/api/sandbox/%63heckout/abc123?x=%2F')).toBe(
      '/api/sandbox/checkout/[redacted]?x=%2F',
    );
    expect(redactUrl('/api/sandbox/%2Fcheckout/abc123')).toBe('/api/sandbox//checkout/[redacted]');
    expect(redactUrl('/api/sandbox/transaction/status')).toBe('/api/sandbox/transaction/status');
  });
});

interface LogLine {
  reqId?: string;
  msg?: string;
  req?: { url?: string };
}

interface SentSpelling {
  name: string;
  status: number;
  requestId: string;
  secrets: string[];
}

describe("the sandbox's log never carries a token sent in a URL, however it is spelled", () => {
  let log = '';
  const sent = new Map<string, SentSpelling>();
  beforeAll(async () => {
    const { code, stdout, stderr } = await run('test/sandbox/fixtures/logged-secrets.ts');
    expect(code, stderr).toBe(0);
    log = stdout;
    for (const line of stderr.split('\n').filter((text) => text.startsWith('{'))) {
      const request = JSON.parse(line) as SentSpelling;
      sent.set(request.name, request);
    }
  }, 60_000);

  it.each(secretSpellings)('$name: served, logged, its secrets [redacted]', ({ name, status }) => {
    const request = sent.get(name);
    expect(request?.status).toBe(status);
    const lines = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.reqId === request?.requestId);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines[0]?.req?.url).toContain('[redacted]');
    for (const secret of request?.secrets ?? []) {
      // Half a secret is enough to find: one escaped character must not hide the rest.
      expect(log).not.toContain(secret.slice(0, secret.length / 2));
      expect(log).not.toContain(secret.slice(secret.length / 2));
    }
  });
});
