import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryReferenceStore, Pesakit, type ReferenceStore } from '../../src/index.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { merchantCallback } from '../callbacks/payloads.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

// Checks the callback route on a PostgreSQL store: a callback whose
// data.paymentReference holds a NUL character (the route is unauthenticated; JSON carries it as
// "\u0000", a GET's query as %00) could not be written to PostgreSQL text, and the receiver
// answered 503 "please send it again" — forever, to a callback that will never fit, while the
// memory store kept it. It is client input: a 422 naming the field, nothing stored, on every
// store.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('callback_nul');
});
afterAll(() => database.drop());

const stores: Array<[string, () => Promise<ReferenceStore>]> = [
  ['memory', async () => new MemoryReferenceStore()],
  ['postgres', () => PostgresReferenceStore.open(database.url, { schema: 'callback_nul' })],
];

const body = JSON.stringify(
  merchantCallback({ paymentReference: 'ENG\u0000001', controlNumber: '990000000001', amount: 1 }),
);

describe.each(stores)('%s store: a paymentReference with a NUL character', (_, open) => {
  it.each([
    [
      'POST',
      { method: 'POST', url: '/callback', headers: { 'content-type': 'application/json' }, body },
    ],
    ['GET', { method: 'GET', url: `/callback?payload=${encodeURIComponent(body)}`, headers: {} }],
  ] as const)(
    '%s: a 422 naming data.paymentReference, nothing stored',
    async (_method, request) => {
      const store = await open();
      const receiver = new Pesakit({
        environment: 'sandbox',
        baseUrl: 'http://127.0.0.1:9',
        store,
      }).createCallbackReceiver();
      try {
        const answer = await receiver.receive(request);
        expect(answer.status).toBe(422);
        expect(JSON.parse(String(answer.body)).errors).toHaveProperty(['data.paymentReference']);
        expect(await store.inbox.list({})).toEqual([]);
      } finally {
        await receiver.close();
        await store.close();
      }
    },
  );
});
