import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { engineCallbackSchema, merchantCallbackSchema } from '../../src/schemas/collection.js';
import { CallbackReceiver } from './delivery-receiver.js';
import { bearer, eventually, field, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
let token: string;
const receivers: CallbackReceiver[] = [];
afterEach(async () => {
  await s.close();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function start(options: SandboxOptions = {}) {
  s = await startSandbox(options);
  token = await s.account('collection', 'shop@duka.tz');
}
async function receiver() {
  const r = new CallbackReceiver();
  receivers.push(r);
  return { r, url: await r.listen() };
}
async function initiate(body: Record<string, unknown>, channel: 'mno' | 'bank' = 'mno') {
  const answer = await s.call(
    'POST',
    `/api/sandbox/initiate-payment/${channel}/`,
    body,
    bearer(token),
  );
  expect(answer.status).toBe(200);
  return answer.body as { controlNumber: string; reference: string };
}
const settle = (ref_id: string, outcome: 'success' | 'failed') =>
  s.control('collection/settle', { ref_id, outcome });

function enginePayload(reference: string, overrides: Record<string, unknown> = {}) {
  return {
    message: 'Payment successful',
    code: '200',
    status: true,
    description: 'ok',
    data: {
      providerType: 'MNO',
      providerName: 'Vodacom',
      amount: 5000,
      paymentReference: reference,
      payerMobile: '255754123456',
      transactionDate: '2025-01-31 14:05:00',
      transactionID: 'TX1',
      transactionChannel: 'USSD',
      ...overrides,
    },
  };
}

describe('engine settlement callback: the stored transaction is updated and visible via status', () => {
  it('control settle makes the engine POST its payload to /api/sandbox/callback; status shows success', async () => {
    await start();
    const tx = await initiate({ amount: 5000, msisdn: '255754123456' });
    const ack = await settle(tx.controlNumber, 'success');
    expect(ack.status).toBe(200);
    expect(ack.body).toEqual({
      message: expect.any(String),
      status: 'success',
      reference: tx.reference,
      duplicate: false,
    });
    const found = await s.call(
      'POST',
      '/api/sandbox/transaction/status',
      { ref_id: tx.reference },
      bearer(token),
    );
    expect(found.body).toMatchObject({
      data: { status: 'success', paid_amount: 5000, transactionID: expect.any(String) },
    });
  });

  it('notifies the merchant at its callback_url with the engine payload plus controlNumber', async () => {
    await start();
    const { r, url } = await receiver();
    const tx = await initiate({ amount: 7000, msisdn: '255754123456', callback_url: url });
    await settle(tx.controlNumber, 'failed');
    const [callback] = await r.waitFor(1);
    const body = merchantCallbackSchema.parse(callback?.body);
    expect(body).toMatchObject({
      status: false,
      controlNumber: tx.controlNumber,
      external_reference: null,
    });
    expect(body.data.paymentReference).toBe(tx.reference);
    await s.sandbox.idle();
    expect(s.sandbox.inspect.deliveries()).toEqual([
      expect.objectContaining({ outcome: 'delivered', key: tx.reference }),
    ]);
  });
});

describe('callback handlers are idempotent: a repeated paymentReference changes nothing', () => {
  it('updates once for sequential duplicates, and notifies the merchant once', async () => {
    await start();
    const { r, url } = await receiver();
    const tx = await initiate({ amount: 5000, msisdn: '255754123456', callback_url: url });
    const first = await s.call('POST', '/api/sandbox/callback', enginePayload(tx.reference));
    const second = await s.call(
      'POST',
      '/api/sandbox/callback',
      enginePayload(tx.reference, { amount: 1 }),
    );
    const reversal = await s.call('POST', '/api/sandbox/callback', {
      ...enginePayload(tx.reference),
      status: false,
    });
    expect([first, second, reversal].map((a) => field(a, 'duplicate'))).toEqual([
      false,
      true,
      true,
    ]);
    expect(s.sandbox.inspect.collection(tx.reference)).toMatchObject({
      status: 'success',
      paid_amount: 5000,
    });
    await s.sandbox.idle();
    expect(r.received).toHaveLength(1);
  });

  it('updates once when duplicates arrive concurrently', async () => {
    await start();
    const tx = await initiate({ amount: 5000, msisdn: '255754123456' });
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        s.call('POST', '/api/sandbox/callback', enginePayload(tx.reference)),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => field(a, 'duplicate') === false)).toHaveLength(1);
  });
});

describe('engine callback validation: incomplete nested data.* gives 422 with per-field errors', () => {
  it('names data.amount and data.transactionDate', async () => {
    await start();
    const tx = await initiate({ amount: 5000, msisdn: '255754123456' });
    const bad = enginePayload(tx.reference, { amount: 'lots', transactionDate: '31/01/2025' });
    const answer = await s.call('POST', '/api/sandbox/callback', bad);
    expect(answer.status).toBe(422);
    expect(Object.keys(field(answer, 'errors') as object).sort()).toEqual([
      'data.amount',
      'data.transactionDate',
    ]);
    expect(s.sandbox.inspect.collection(tx.reference)?.status).toBe('pending');
    const missing = await s.call('POST', '/api/sandbox/callback', {
      message: 'x',
      code: '1',
      status: true,
      description: '',
    });
    expect(field(missing, 'errors')).toHaveProperty('data');
  });

  it('answers an unknown paymentReference with 404', async () => {
    await start();
    expect(
      (await s.call('POST', '/api/sandbox/callback', enginePayload('ENGUNKNOWN'))).status,
    ).toBe(404);
  });

  it('accepts GET with data[field] query parameters, and names a missing one', async () => {
    await start();
    const tx = await initiate({ amount: 5000, msisdn: '255754123456' });
    const payload = engineCallbackSchema.parse(enginePayload(tx.reference));
    const query = new URLSearchParams({
      message: payload.message,
      code: payload.code,
      status: 'true',
      description: payload.description,
    });
    for (const [key, value] of Object.entries(payload.data))
      query.set(`data[${key}]`, String(value));
    query.delete('data[payerMobile]');
    const incomplete = await s.call('GET', `/api/sandbox/callback?${query}`);
    expect(incomplete.status).toBe(422);
    expect(field(incomplete, 'errors')).toHaveProperty(['data.payerMobile']);
    query.set('data[payerMobile]', '255754123456');
    const ok = await s.call('GET', `/api/sandbox/callback?${query}`);
    expect(ok.body).toMatchObject({ status: 'success', duplicate: false });
  });

  it('with an engineKey, requires x-engine-key (401 without); the simulated engine sends it', async () => {
    await start({ engineKey: 'engine-secret' });
    const tx = await initiate({ amount: 5000, msisdn: '255754123456' });
    expect(
      (await s.call('POST', '/api/sandbox/callback', enginePayload(tx.reference))).status,
    ).toBe(401);
    expect((await settle(tx.controlNumber, 'success')).body).toMatchObject({ status: 'success' });
  });
});

describe('automatic settlement and test numbers', () => {
  it('settles an mno payment by itself; a number ending 999 fails; bank waits for the control API', async () => {
    await start({ autoSettle: { delayMs: 10 } });
    const paid = await initiate({ amount: 5000, msisdn: '255754123456' });
    const failing = await initiate({ amount: 5000, msisdn: '255754123999' });
    const bank = await initiate({ amount: 5000 }, 'bank');
    await eventually(() =>
      s.sandbox.inspect.collection(paid.reference)?.status === 'success' ? true : undefined,
    );
    await eventually(() =>
      s.sandbox.inspect.collection(failing.reference)?.status === 'failed' ? true : undefined,
    );
    expect(s.sandbox.inspect.collection(bank.reference)?.status).toBe('pending');
    expect(s.sandbox.inspect.pendingSettlements()).toBe(0);
  });

  it('a number ending 998 never settles by itself; one ending 997 settles ten times later', async () => {
    // 200 ms vs 2 s: the late one must still be pending when the normal one has settled, with
    // enough margin that a loaded CI machine cannot blur the two.
    await start({ autoSettle: { delayMs: 200 } });
    const silent = await initiate({ amount: 5000, msisdn: '255754123998' });
    const late = await initiate({ amount: 5000, msisdn: '255754123997' });
    const normal = await initiate({ amount: 5000, msisdn: '255754123456' });
    expect(s.sandbox.inspect.pendingSettlements()).toBe(2);
    const statusOf = (ref: string) => s.sandbox.inspect.collection(ref)?.status;
    await eventually(() => (statusOf(normal.reference) === 'success' ? true : undefined));
    // The normal one settled after 200 ms; the late one waits 2 000 ms.
    expect(statusOf(late.reference)).toBe('pending');
    await eventually(() => (statusOf(late.reference) === 'success' ? true : undefined));
    expect(statusOf(silent.reference)).toBe('pending');
    expect(s.sandbox.inspect.pendingSettlements()).toBe(0);
  });

  it('reset and close cancel pending settlements', async () => {
    await start({ autoSettle: { delayMs: 60_000 } });
    await initiate({ amount: 5000, msisdn: '255754123456' });
    expect(s.sandbox.inspect.pendingSettlements()).toBe(1);
    await s.sandbox.reset();
    expect(s.sandbox.inspect.pendingSettlements()).toBe(0);
    expect(s.sandbox.inspect.snapshot().collections).toBe(0);
  });
});
