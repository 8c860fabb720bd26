import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS_KEPT, TokenRegistry } from '../../src/sandbox/auth/tokens.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { SMS_KEPT, SmsOutbox } from '../../src/sandbox/state/sms.js';
import { bearer, field, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
afterEach(() => s.close());
const start = async (options: SandboxOptions = {}) => {
  s = await startSandbox(options);
};
const errorsOf = (answer: { body: unknown }) =>
  (answer.body as { errors?: Record<string, string[]> }).errors ?? {};

describe('string limits: callback_url 2048, email 254, name and description 255, others 2048', () => {
  it('refuses a long callback_url (up to a near-1 MiB one) with a 422 naming it, storing nothing', async () => {
    await start();
    const before = s.sandbox.inspect.snapshot();
    for (const length of [2049, 1000 * 1000]) {
      const answer = await s.call('POST', '/api/sandbox/pay_mobile', {
        amount: 1000,
        msisdn: '255754123456',
        callback_url: `http://merchant.example/${'a'.repeat(length - 24)}`,
      });
      expect(answer.status).toBe(422);
      expect(errorsOf(answer)['callback_url']).toEqual([
        'The callback_url may not be greater than 2048 characters.',
      ]);
    }
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
    const fits = await s.call('POST', '/api/sandbox/pay_mobile', {
      amount: 1000,
      msisdn: '255754123456',
      callback_url: `http://merchant.example/${'a'.repeat(2048 - 24)}`,
    });
    expect(fits.status).toBe(200);
  });

  it('refuses long names, emails, descriptions, passwords and unnamed strings, by dotted path', async () => {
    await start();
    const register = await s.call('POST', '/api/sandbox/disbursement/register', {
      name: 'n'.repeat(256),
      email: `${'e'.repeat(250)}@d.tz`,
      phone: '255754123456',
      password: 'p'.repeat(129),
    });
    expect(Object.keys(errorsOf(register)).sort()).toEqual(['email', 'name', 'password']);
    const checkout = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
      amount: 10,
      callback_url: 'http://merchant.example/r',
      description: 'd'.repeat(256),
    });
    expect(errorsOf(checkout)['description']).toEqual([
      'The description may not be greater than 255 characters.',
    ]);
    const engine = await s.call('POST', '/api/sandbox/callback', {
      message: 'm'.repeat(2049),
      data: { paymentReference: 'r'.repeat(5000) },
    });
    expect(errorsOf(engine)).toEqual({
      message: ['The message may not be greater than 2048 characters.'],
      'data.paymentReference': [
        'The data.paymentReference may not be greater than 2048 characters.',
      ],
    });
    const login = await s.call('POST', '/api/sandbox/login', {
      email: 'a@b.tz',
      password: 'x'.repeat(100_000),
    });
    expect(login.status).toBe(422);
    expect(errorsOf(login)).toHaveProperty('password');
  });
});

describe('timeouts: a request must arrive whole within requestTimeoutMs', () => {
  it('answers a stalled body 408 and closes the connection; a normal request is unaffected', async () => {
    await start({ requestTimeoutMs: 300 });
    const { port } = new URL(s.url);
    const socket = connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    socket.write(
      'POST /api/sandbox/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"em',
    );
    await once(socket, 'close');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toMatch(/x-request-id: req_/);
    expect(answer).toContain('{"message":"The request did not arrive in time');
    expect((await s.call('POST', '/api/sandbox/merchant/test-airtel')).status).toBe(200);
  });
});

describe('bounded state: recordLimit per list, then 429 sandbox_full until a reset', () => {
  it('refuses the record past the limit, changes nothing, and works again after reset', async () => {
    await start({ recordLimit: 2 });
    const pay = () =>
      s.call('POST', '/api/sandbox/pay_mobile', { amount: 100, msisdn: '255754123456' });
    expect((await pay()).status).toBe(200);
    expect(
      (
        await s.call('POST', '/api/sandbox/initiate-secure-payment', {
          amount: 100,
          callback_url: 'http://merchant.example/r',
        })
      ).status,
    ).toBe(200);
    const before = s.sandbox.inspect.snapshot();
    const full = await pay();
    expect(full.status).toBe(429);
    expect(field(full, 'code')).toBe('sandbox_full');
    expect(field(full, 'message')).toMatch(/maximum of 2 collections.*_control\/reset/);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
    await s.control('reset', {});
    expect((await pay()).status).toBe(200);
  });

  it('caps payouts and airtime payments the same way, before any money is held', async () => {
    await start({ recordLimit: 1 });
    const token = await s.account('disbursement', 'cap@duka.tz', 10_000);
    const pay = () =>
      s.call(
        'POST',
        '/api/sandbox/disbursement/payment',
        { msisdn: '255754123456', amount: 1000, name: 'N' },
        bearer(token),
      );
    expect((await pay()).status).toBe(200);
    const before = s.sandbox.inspect.snapshot();
    expect(field(await pay(), 'code')).toBe('sandbox_full');
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('logs keep their latest entries: SMS 1 000, live tokens 10 000', () => {
    const outbox = new SmsOutbox(() => 'now');
    for (let i = 0; i <= SMS_KEPT; i += 1) {
      outbox.send({ to: '255754123456', text: `m${i}`, product: 'airtime' });
    }
    expect(outbox.list()).toHaveLength(SMS_KEPT);
    expect(outbox.list()[0]?.text).toBe('m1');
    const tokens = new TokenRegistry();
    const first = tokens.issue('collection', 1);
    for (let i = 0; i < TOKENS_KEPT; i += 1) tokens.issue('collection', 1);
    expect(tokens.size).toBe(TOKENS_KEPT);
    expect(tokens.lookup('collection', `Bearer ${first}`).ok).toBe(false);
  });
});
