import { describe, expect, it } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import type { ReferenceStore } from '../../src/references/types.js';
import { engineCallback, merchantCallback } from './payloads.js';

function receiverOn(store: ReferenceStore = new MemoryReferenceStore()) {
  const pull = async () => {
    throw new Error('receive() must never pull');
  };
  return { store, receiver: new CallbackReceiver({ store, pull }, { maxBodyBytes: 2048 }) };
}

const json = { 'content-type': 'application/json' };
const body = merchantCallback({ paymentReference: 'PR-1', controlNumber: '991001', amount: 15000 });

describe('receiver.receive(): the fast path', () => {
  it('stores the raw callback, redacted, and answers 200 before any processing', async () => {
    const { store, receiver } = receiverOn();
    const received: unknown[] = [];
    receiver.on('received', (event) => received.push(event));
    const raw = `  ${JSON.stringify(body)}\n`;
    const response = await receiver.receive({
      method: 'POST',
      url: '/callback?pesakit_ref=order-1',
      headers: {
        ...json,
        authorization: 'Bearer s3cret',
        cookie: 'sid=1',
        // The sandbox's engine key, on a callback forwarded from an engine.
        'X-Engine-Key': 'engine-s3cret',
        'x-trace': ['a', 'b'],
      },
      body: Buffer.from(raw),
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ received: true, duplicate: false });
    const [entry] = await store.inbox.list();
    expect(entry).toMatchObject({
      method: 'POST',
      url: '/callback?pesakit_ref=order-1',
      body: raw,
      status: 'pending',
      claim: {
        status: 'success',
        amount: 15000,
        paymentReference: 'PR-1',
        controlNumber: '991001',
        externalReference: null,
        merchantReferenceHint: 'order-1',
      },
    });
    expect(entry?.headers).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-engine-key': '[redacted]',
      'x-trace': 'a, b',
    });
    expect(JSON.stringify(entry)).not.toContain('s3cret');
    expect(JSON.stringify(received)).not.toContain('s3cret');
    expect(received).toHaveLength(1);
  });

  it('the same callback again (any key order or spacing) is a counted duplicate', async () => {
    const { store, receiver } = receiverOn();
    const duplicates: number[] = [];
    receiver.on('duplicate', (event) => duplicates.push(event.duplicates));
    // The same content, keys in another order.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const answers = await Promise.all(
      [
        JSON.stringify(body),
        JSON.stringify(reordered, null, 2),
        ...Array(3).fill(JSON.stringify(body)),
      ].map((text) =>
        receiver.receive({ method: 'POST', url: '/callback', headers: json, body: text }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => JSON.parse(answer.body).duplicate)).toHaveLength(4);
    const entries = await store.inbox.list();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.duplicates).toBe(4);
    expect(duplicates.sort()).toEqual([1, 2, 3, 4]);
  });

  it('a failure claim for the same reference is a different callback', async () => {
    const { store, receiver } = receiverOn();
    await receiver.receive({
      method: 'POST',
      url: '/callback',
      headers: json,
      body: JSON.stringify(body),
    });
    await receiver.receive({
      method: 'POST',
      url: '/callback',
      headers: json,
      body: JSON.stringify({ ...body, status: false }),
    });
    expect((await store.inbox.list()).map((entry) => entry.claim.status)).toEqual([
      'success',
      'failed',
    ]);
  });

  it('accepts the bare engine payload, and a body a framework already parsed', async () => {
    const { store, receiver } = receiverOn();
    const engine = engineCallback({ paymentReference: 'PR-2', amount: 500 });
    expect(
      (await receiver.receive({ method: 'POST', url: '/callback', headers: json, body: engine }))
        .status,
    ).toBe(200);
    const [entry] = await store.inbox.list();
    expect(entry?.claim).toMatchObject({ paymentReference: 'PR-2', controlNumber: null });
    expect(JSON.parse(entry?.body ?? '')).toEqual(engine);
  });

  it('GET /callback carries the JSON in the payload parameter', async () => {
    const { store, receiver } = receiverOn();
    const payload = encodeURIComponent(JSON.stringify(body));
    const response = await receiver.receive({
      method: 'GET',
      url: `/callback?payload=${payload}&pesakit_ref=order-9`,
      headers: {},
    });
    expect(response.status).toBe(200);
    expect((await store.inbox.list())[0]?.claim.merchantReferenceHint).toBe('order-9');
    // The engine's flat GET form: data[field] / data.field.
    const flat = new URLSearchParams({
      message: 'Payment successful',
      code: '200',
      status: 'true',
      description: 'Settled',
      'data[providerType]': 'MNO',
      'data[providerName]': 'Vodacom',
      'data[amount]': '2500',
      'data.paymentReference': 'PR-GET',
      'data[payerMobile]': '255754123456',
      'data[transactionDate]': '2024-06-01 12:30:00',
      'data[transactionID]': 'MP.GET',
      'data[transactionChannel]': 'USSD',
      pesakit_ref: 'order-10',
    });
    const fromFlat = await receiver.receive({
      method: 'GET',
      url: `/callback?${flat}`,
      headers: {},
    });
    expect(fromFlat.status).toBe(200);
    expect((await store.inbox.list())[1]?.claim).toMatchObject({
      status: 'success',
      amount: 2500,
      paymentReference: 'PR-GET',
      merchantReferenceHint: 'order-10',
    });
    const badFlat = await receiver.receive({
      method: 'GET',
      url: '/callback?status=maybe&data[amount]=lots',
      headers: {},
    });
    expect(badFlat.status).toBe(422);
    expect(Object.keys(JSON.parse(badFlat.body).errors)).toEqual(
      expect.arrayContaining(['status', 'data.amount']),
    );
    const missing = await receiver.receive({
      method: 'GET',
      url: '/callback?pesakit_ref=x',
      headers: {},
    });
    expect(missing.status).toBe(422);
    expect(JSON.parse(missing.body).errors.payload[0]).toMatch(/required/);
  });

  it('invalid payloads answer 422 in the Laravel shape and store nothing', async () => {
    const { store, receiver } = receiverOn();
    const cases: Array<[unknown, string]> = [
      [{ ...body, data: { ...body.data, amount: -5 } }, 'data.amount'],
      [{ ...body, data: { ...body.data, paymentReference: undefined } }, 'data.paymentReference'],
      ['{"status": tru', 'body'],
      ['[1,2]', 'body'],
      ['{"__proto__": {"admin": true}}', 'body'],
    ];
    for (const [payload, field] of cases) {
      const response = await receiver.receive({
        method: 'POST',
        url: '/callback',
        headers: json,
        body: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
      expect(response.status, field).toBe(422);
      const answer = JSON.parse(response.body);
      expect(typeof answer.message).toBe('string');
      expect(answer.errors[field], JSON.stringify(answer)).toBeInstanceOf(Array);
    }
    expect(await store.inbox.list()).toEqual([]);
  });

  it('answers 404, 405, 415 and 413 for what it does not take', async () => {
    const { store, receiver } = receiverOn();
    const send = (
      method: string,
      url: string,
      headers: Record<string, string> = json,
      payload?: unknown,
    ) => receiver.receive({ method, url, headers, body: payload });
    expect((await send('POST', '/elsewhere', json, '{}')).status).toBe(404);
    const wrong = await send('PUT', '/callback', json, '{}');
    expect(wrong.status).toBe(405);
    expect(wrong.headers['allow']).toBe('GET, POST');
    const deleted = await send('DELETE', '/return');
    expect(deleted.status).toBe(405);
    expect(deleted.headers['allow']).toBe('GET, HEAD, POST');
    // HEAD is GET without the body: the same answer, which the HTTP server sends bodiless.
    const head = await send('HEAD', '/return?external_reference=EXT-UNKNOWN', {});
    const get = await send('GET', '/return?external_reference=EXT-UNKNOWN', {});
    expect(head).toEqual(get);
    expect(head.status).toBe(404);
    // A checkout's settlement callback arrives by POST at its one callback_url, the return route.
    expect((await send('POST', '/return', json, JSON.stringify(body))).status).toBe(200);
    expect((await store.inbox.list()).length).toBe(1);
    expect(
      (await send('POST', '/callback', { 'content-type': 'text/plain' }, JSON.stringify(body)))
        .status,
    ).toBe(415);
    expect((await send('POST', '/callback', {}, JSON.stringify(body))).status).toBe(415);
    const large = JSON.stringify({ ...body, padding: 'x'.repeat(4096) });
    expect((await send('POST', '/callback', json, large)).status).toBe(413);
    expect(receiver.maxBodyBytes).toBe(2048);
    expect(
      (
        await send(
          'POST',
          '/callback',
          { 'content-type': 'application/json; charset=utf-8' },
          JSON.stringify(body),
        )
      ).status,
    ).toBe(200);
    expect(await store.inbox.list()).toHaveLength(1);
  });

  it('a store that cannot write answers 503 (the platform retries), never 500', async () => {
    const store = new MemoryReferenceStore();
    const broken = Object.assign(Object.create(store) as ReferenceStore, {
      inbox: Object.assign(Object.create(store.inbox), {
        append: async () => {
          throw new Error('disk full');
        },
      }),
    });
    const { receiver } = receiverOn(broken);
    const errors: string[] = [];
    receiver.on('error', (event) => errors.push(`${event.stage}: ${event.error.message}`));
    const response = await receiver.receive({
      method: 'POST',
      url: '/callback',
      headers: json,
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(errors).toEqual(['receive: disk full']);
  });
});
