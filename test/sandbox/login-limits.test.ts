import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { field, PASSWORD, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
afterEach(() => s.close());

const start = async (options: SandboxOptions = {}) => {
  s = await startSandbox(options);
  await s.control('accounts', { product: 'collection', email: 'shop@duka.tz', password: PASSWORD });
  await s.control('accounts', {
    product: 'collection',
    email: 'other@duka.tz',
    password: PASSWORD,
  });
};
const login = (email: string, password: string, product = '') =>
  s.call('POST', `/api/sandbox${product}/login`, { email, password });

describe('login rate limiting: failed logins per account and per address', () => {
  it('after 10 failures the account is answered 429 with Retry-After, even with the right password', async () => {
    await start();
    for (let i = 0; i < 10; i += 1) {
      expect((await login('shop@duka.tz', `wrong-${i}`)).status).toBe(401);
    }
    const locked = await login('shop@duka.tz', PASSWORD);
    expect(locked.status).toBe(429);
    expect(field(locked, 'code')).toBe('too_many_logins');
    expect(field(locked, 'message')).toMatch(/Too many failed logins; try again in \d+ s/);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another account is not affected.
    expect((await login('other@duka.tz', PASSWORD)).status).toBe(200);
    const before = s.sandbox.inspect.snapshot();
    expect((await login('shop@duka.tz', PASSWORD)).status).toBe(429);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('60 concurrent wrong logins: at most the limit are evaluated (401), the rest are answered 429', async () => {
    await start();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login('shop@duka.tz', `wrong-${i}`)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(50);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect((await login('shop@duka.tz', PASSWORD)).status).toBe(429);
  });

  it('only failures count: a suite may log in many times', async () => {
    await start({ loginLimits: { perAccount: 3, perAddress: 3 } });
    for (let i = 0; i < 12; i += 1)
      expect((await login('shop@duka.tz', PASSWORD)).status).toBe(200);
  });

  it('an address cycling through emails is limited as a whole (perAddress)', async () => {
    await start({ loginLimits: { perAccount: 100, perAddress: 5 } });
    for (let i = 0; i < 5; i += 1) {
      expect((await login(`guess${i}@duka.tz`, 'wrong-password')).status).toBe(401);
    }
    expect((await login('other@duka.tz', PASSWORD)).status).toBe(429);
    expect((await login('x@duka.tz', 'p', '/disbursement')).status).toBe(429);
  });

  it('the lock ends when the window does (on the sandbox clock)', async () => {
    let at = Date.parse('2026-01-01T00:00:00Z');
    await start({
      loginLimits: { perAccount: 2, windowMs: 60_000 },
      clock: { now: () => new Date(at) },
    });
    await login('shop@duka.tz', 'wrong-1');
    await login('shop@duka.tz', 'wrong-2');
    at += 59_000;
    const locked = await login('shop@duka.tz', PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe('1');
    at += 1000;
    expect((await login('shop@duka.tz', PASSWORD)).status).toBe(200);
  });

  it('a malformed login is a 422 and counts nothing; loginLimits: false switches it off', async () => {
    await start({ loginLimits: { perAccount: 1, perAddress: 1 } });
    for (let i = 0; i < 3; i += 1) {
      expect((await s.call('POST', '/api/sandbox/login', { email: 1 })).status).toBe(422);
    }
    expect((await login('shop@duka.tz', PASSWORD)).status).toBe(200);
    await s.close();
    await start({ loginLimits: false });
    for (let i = 0; i < 15; i += 1) await login('shop@duka.tz', 'wrong');
    expect((await login('shop@duka.tz', PASSWORD)).status).toBe(200);
  });
});
