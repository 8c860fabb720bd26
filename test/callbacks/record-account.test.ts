import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackReceiverEvents } from '../../src/callbacks/events.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { eventually, serveReceiver } from './receiver-server.js';

// docs/callbacks.md, "A record of another account": the receiver verifies a callback by pulling
// the status with its client's account. For a record made with another account the platform
// answers 404, which proves nothing; so the record is not pulled, a `warning` names both
// accounts, and the record stays open and untouched for that account's reconciler.

const other = { email: 'other-shop@duka.co.tz', password: 'other-collect-1' };

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
  await harness.control('accounts', { product: 'collection', ...other });
});
afterAll(async () => {
  await harness.close();
});

describe('a callback naming a record of another account', () => {
  it('is not pulled: a warning names both accounts, the entry ends not_visible, the record stays pending', async () => {
    const store = await SqliteReferenceStore.open(':memory:');
    // The receiver runs with another shop's collection account on the store shop A writes.
    const shopB = harness.client({ store, credentials: { collection: other }, pullWindowMs: 1 });
    const sent: string[] = [];
    shopB.on('request', (event) => sent.push(event.path));
    const receiver = shopB.createCallbackReceiver({ pollIntervalMs: 50 });
    const warnings: CallbackReceiverEvents['warning'][0][] = [];
    const paid: string[] = [];
    receiver.on('warning', (warning) => warnings.push(warning));
    receiver.on('paid', ({ record }) => paid.push(record.merchantReference));
    const server = await serveReceiver(receiver);
    receiver.start();
    try {
      const shopA = harness.client({ store });
      const payment = await shopA.collection.initiateMno(
        { amount: 15_000, msisdn: '255754123456', callback_url: `${server.url}/callback` },
        { merchantReference: 'order-a' },
      );
      const before = await store.records.get('order-a');
      await harness.control('collection/settle', {
        ref_id: payment.controlNumber,
        outcome: 'success',
      });

      const entry = await eventually(
        async () => (await store.inbox.list()).find((found) => found.status === 'done'),
        15_000,
        'the callback processed',
      );
      expect(entry.outcome).toBe('not_visible');
      const [warning] = warnings;
      expect(warnings).toHaveLength(1);
      expect(warning).toMatchObject({
        code: 'not_visible',
        merchantReference: 'order-a',
        entryId: expect.any(String),
        recordAccount: { environment: 'sandbox', login: accounts.collection.email },
        clientAccount: { environment: 'sandbox', login: other.email },
      });
      expect(warning?.record.merchantReference).toBe('order-a');
      expect(sent.filter((path) => path.endsWith('/transaction/status'))).toEqual([]);
      expect(receiver.pulls).toBe(0);
      expect(paid).toEqual([]);
      expect(await store.records.get('order-a')).toEqual(before);
    } finally {
      await receiver.close();
      await server.close();
      await store.close();
    }
  });
});
