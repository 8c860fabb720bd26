import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { redactCheckoutToken } from '../../src/sandbox/http/log-serializers.js';

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
    expect(redactCheckoutToken('/api/sandbox/checkout/abc123/card')).toBe(
      '/api/sandbox/checkout/[redacted]/card',
    );
    expect(redactCheckoutToken('/api/sandbox/%63heckout/abc123?x=%2F')).toBe(
      '/api/sandbox/checkout/[redacted]?x=%2F',
    );
    expect(redactCheckoutToken('/api/sandbox/%2Fcheckout/abc123')).toBe(
      '/api/sandbox//checkout/[redacted]',
    );
    expect(redactCheckoutToken('/api/sandbox/transaction/status')).toBe(
      '/api/sandbox/transaction/status',
    );
  });
});
