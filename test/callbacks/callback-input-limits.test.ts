import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/index.js';
import { merchantCallback } from '../callbacks/payloads.js';
import { type Framework, type MerchantApp, startMerchantApp } from '../middleware/mount.js';

// Client input never gets a 5xx. A 503 tells the
// platform "try again later", so a callback the inbox can never store would be sent again and
// again, and refused every time. These bodies and URLs fit under maxBodyBytes and Node's header
// limit but over what the inbox keeps: they must be a 4xx that names the field, storing nothing.

const json = { 'content-type': 'application/json' };

function receiverOnMemory() {
  // Never started, so nothing is pulled: every answer here comes from receive() alone.
  const pesakit = new Pesakit({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:9' });
  // Bodies up to 64 KiB, so that only the nesting is refused.
  const receiver = pesakit.createCallbackReceiver({ maxBodyBytes: 64 * 1024 });
  const errors: string[] = [];
  receiver.on('error', (event) => errors.push(event.error.message));
  return { pesakit, receiver, errors };
}

/** A valid callback with one extra field nested `depth` levels deep (objects or arrays). */
function deeplyNested(depth: number, kind: 'object' | 'array'): string {
  const valid = JSON.stringify(
    merchantCallback({
      paymentReference: 'ENG0123456789abcdef',
      controlNumber: '990000000001',
      amount: 15000,
    }),
  );
  const extra =
    kind === 'object'
      ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
      : `${'['.repeat(depth)}${']'.repeat(depth)}`;
  return `${valid.slice(0, -1)},"extra":${extra}}`;
}

describe('receive(): a deeply nested body (within maxBodyBytes) is a 422, never a throw', () => {
  it.each([
    ['object', 9000],
    ['array', 9000],
    ['array', 3000],
    ['object', 40],
  ] as const)('%s nested %i deep', async (kind, depth) => {
    const { pesakit, receiver } = receiverOnMemory();
    const body = deeplyNested(depth, kind);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(receiver.maxBodyBytes);
    // receive() is documented never to throw; before, this rejected with a RangeError
    // (maximum call stack size exceeded) from the dedup key's canonical JSON.
    const answer = await receiver.receive({
      method: 'POST',
      url: '/callback',
      headers: json,
      body,
    });
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body)).toMatchObject({
      errors: { body: [expect.stringMatching(/nested/)] },
    });
    expect(await pesakit.store.inbox.list()).toEqual([]);
  });

  it('a callback with ordinary nesting in an extra field is still received', async () => {
    const { pesakit, receiver } = receiverOnMemory();
    const answer = await receiver.receive({
      method: 'POST',
      url: '/callback',
      headers: json,
      body: deeplyNested(8, 'object'),
    });
    expect(answer.status).toBe(200);
    expect(await pesakit.store.inbox.list()).toHaveLength(1);
  });
});

describe('receive(): callbacks the inbox cannot keep are refused as client input', () => {
  it('a data.paymentReference over 255 characters is a 422 naming the field, nothing stored', async () => {
    const { pesakit, receiver, errors } = receiverOnMemory();
    const body = merchantCallback({
      paymentReference: 'P'.repeat(256),
      controlNumber: '990000000001',
      amount: 15000,
    });
    const answer = await receiver.receive({
      method: 'POST',
      url: '/callback',
      headers: json,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(422);
    const parsed = JSON.parse(answer.body) as { errors: Record<string, string[]> };
    expect(parsed.errors['data.paymentReference']?.[0]).toMatch(/255 characters/);
    expect(await pesakit.store.inbox.list()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a paymentReference of exactly 255 characters is still stored', async () => {
    const { pesakit, receiver } = receiverOnMemory();
    const body = merchantCallback({
      paymentReference: 'P'.repeat(255),
      controlNumber: '990000000001',
      amount: 15000,
    });
    const answer = await receiver.receive({
      method: 'POST',
      url: '/callback',
      headers: json,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    expect(await pesakit.store.inbox.list()).toHaveLength(1);
  });

  it('the same over GET (payload in the query) is a 422 too', async () => {
    const { pesakit, receiver } = receiverOnMemory();
    const body = merchantCallback({
      paymentReference: 'P'.repeat(300),
      controlNumber: '990000000001',
      amount: 15000,
    });
    const answer = await receiver.receive({
      method: 'GET',
      url: `/callback?payload=${encodeURIComponent(JSON.stringify(body))}`,
      headers: {},
    });
    expect(answer.status).toBe(422);
    expect(await pesakit.store.inbox.list()).toEqual([]);
  });

  it('a request target over 8192 characters (a long pesakit_ref) is a 414, nothing stored', async () => {
    const { pesakit, receiver, errors } = receiverOnMemory();
    const body = merchantCallback({
      paymentReference: 'ENG0123456789abcdef',
      controlNumber: '990000000001',
      amount: 15000,
    });
    const answer = await receiver.receive({
      method: 'POST',
      url: `/callback?pesakit_ref=${'r'.repeat(9000)}`,
      headers: json,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(414);
    expect(JSON.parse(answer.body)).toMatchObject({ message: expect.stringMatching(/8192/) });
    expect(await pesakit.store.inbox.list()).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe.each<Framework>(['express', 'fastify'])(
  '%s: the same limits over real HTTP',
  (framework) => {
    let app: MerchantApp;
    let pesakit: Pesakit;
    beforeAll(async () => {
      const setup = receiverOnMemory();
      pesakit = setup.pesakit;
      app = await startMerchantApp(framework, setup.receiver);
    });
    afterAll(() => app.close());

    it('a long reference is 422, a long URL 414, a deep body 422: never 5xx', async () => {
      const longReference = merchantCallback({
        paymentReference: 'P'.repeat(1000),
        controlNumber: '990000000001',
        amount: 15000,
      });
      const first = await fetch(`${app.url}/pesakit/callback`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(longReference),
      });
      expect(first.status).toBe(422);
      const fine = merchantCallback({
        paymentReference: 'ENG0123456789abcdef',
        controlNumber: '990000000001',
        amount: 15000,
      });
      const second = await fetch(`${app.url}/pesakit/callback?pesakit_ref=${'r'.repeat(10_000)}`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(fine),
      });
      expect(second.status).toBe(414);
      expect(await pesakit.store.inbox.list()).toEqual([]);
    });
  },
);
