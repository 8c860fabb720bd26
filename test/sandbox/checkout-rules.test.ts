import { afterEach, describe, expect, it } from 'vitest';
import { field, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
afterEach(() => s.close());

let now = Date.parse('2026-03-01T09:00:00Z');
const clock = { now: () => new Date(now) };

async function openCheckout() {
  const answer = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
    amount: 25_000,
    callback_url: 'http://merchant.example/return',
  });
  expect(answer.status).toBe(200);
  return answer.body as { payment_token: string; controlNumber: string };
}
const session = (token: string) => s.call('POST', '/api/sandbox/portal-session', { token });
const card = (token: string, sessionId: unknown, cardNumber: string) =>
  s.call('POST', `/api/sandbox/checkout/${token}/card`, {
    session_id: sessionId,
    card_number: cardNumber,
  });
const phone = (token: string) =>
  s.call('POST', '/api/sandbox/mno/', { token, msisdn: '255754123456' });
const status = async (token: string) =>
  field(await s.call('GET', `/api/sandbox/checkout/${token}/status`), 'status');

describe('card and phone on one checkout: one payment at a time, the first settlement decides', () => {
  it('a declined card after a phone payment started does not fail the checkout; the phone payment settles it', async () => {
    s = await startSandbox();
    const checkout = await openCheckout();
    const early = await session(checkout.payment_token);
    expect(early.status).toBe(200);
    expect((await phone(checkout.payment_token)).status).toBe(200);

    const declined = await card(
      checkout.payment_token,
      field(early, 'session_id'),
      '4000000000000002',
    );
    expect(declined.status).toBe(409);
    expect(field(declined, 'message')).toMatch(/phone payment .* waiting/);
    // A new session may be opened (it moves no money), but it cannot pay either.
    const late = await session(checkout.payment_token);
    expect(late.status).toBe(200);
    const approved = await card(
      checkout.payment_token,
      field(late, 'session_id'),
      '4242424242424242',
    );
    expect(approved.status).toBe(409);
    expect(await status(checkout.payment_token)).toBe('pending');

    const settled = await s.control('collection/settle', {
      ref_id: checkout.controlNumber,
      outcome: 'success',
    });
    expect(field(settled, 'duplicate')).toBe(false);
    expect(await status(checkout.payment_token)).toBe('success');
    expect(s.sandbox.inspect.collection(checkout.controlNumber)).toMatchObject({
      status: 'success',
      paid_amount: 25_000,
      msisdn: '255754123456',
    });
  });

  it('with no phone payment, a declined card fails the checkout (and a phone payment is then 409)', async () => {
    s = await startSandbox();
    const checkout = await openCheckout();
    const opened = await session(checkout.payment_token);
    const declined = await card(
      checkout.payment_token,
      field(opened, 'session_id'),
      '4000000000000002',
    );
    expect(field(declined, 'status')).toBe('failed');
    expect((await phone(checkout.payment_token)).status).toBe(409);
  });

  it('an approved card settles the checkout at once; a later phone payment is refused (409)', async () => {
    s = await startSandbox();
    const checkout = await openCheckout();
    const opened = await session(checkout.payment_token);
    const paid = await card(
      checkout.payment_token,
      field(opened, 'session_id'),
      '4242424242424242',
    );
    expect(field(paid, 'status')).toBe('success');
    expect((await phone(checkout.payment_token)).status).toBe(409);
  });
});

describe('card sessions expire at expires_at', () => {
  it('refuses a card on an expired session (422 naming session_id); a new session works', async () => {
    s = await startSandbox({ clock });
    const checkout = await openCheckout();
    const opened = await session(checkout.payment_token);
    const expiresAt = Date.parse(field(opened, 'expires_at') as string);
    expect(expiresAt - now).toBe(15 * 60 * 1000);

    now = expiresAt;
    const before = s.sandbox.inspect.snapshot();
    const late = await card(
      checkout.payment_token,
      field(opened, 'session_id'),
      '4242424242424242',
    );
    expect(late.status).toBe(422);
    expect((field(late, 'errors') as Record<string, string[]>)['session_id']?.[0]).toMatch(
      /expired at .*open a new one/,
    );
    expect(s.sandbox.inspect.snapshot()).toEqual(before);

    const fresh = await session(checkout.payment_token);
    const paid = await card(checkout.payment_token, field(fresh, 'session_id'), '4242424242424242');
    expect(field(paid, 'status')).toBe('success');
  });

  it('a session pays once: the same session_id cannot be used for a second card', async () => {
    s = await startSandbox({ clock });
    const first = await openCheckout();
    const opened = await session(first.payment_token);
    const sessionId = field(opened, 'session_id');
    expect(field(await card(first.payment_token, sessionId, '4242424242424242'), 'status')).toBe(
      'success',
    );
    const second = await openCheckout();
    const reused = await card(second.payment_token, sessionId, '4242424242424242');
    expect(reused.status).toBe(422);
  });
});
