import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import type { ReferenceStore } from '../../src/references/types.js';
import type { CollectionTransaction } from '../../src/schemas/collection.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { moves } from '../helpers/moves.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { TestClock } from '../helpers/test-clock.js';
import { collectionTransaction } from './collections.js';
import { merchantCallback } from './payloads.js';
import { eventually } from './receiver-server.js';

// Pruning deletes the inbox entry, which was also the dedup of that callback. What keeps a
// redelivery after the prune from crediting the order twice is the record's own status (the
// transition is the claim) and the effect on the record — neither of which prune touches.

const day = 24 * 3_600_000;
let database: TestDatabase | undefined;
let schemas = 0;
const opened: ReferenceStore[] = [];
const receivers: CallbackReceiver[] = [];

const stores: [string, (now: () => Date) => Promise<ReferenceStore>][] = [
  ['memory', async (now) => new MemoryReferenceStore({ now })],
  ['SQLite', (now) => SqliteReferenceStore.open(':memory:', { now })],
  [
    'PostgreSQL',
    async (now) => {
      database ??= await createTestDatabase('prune_redelivery');
      schemas += 1;
      return PostgresReferenceStore.open(database.url, {
        now,
        schema: `redelivery_${schemas}`,
        maxConnections: 4,
      });
    },
  ],
];

afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
  for (const store of opened.splice(0)) await store.close();
});
afterAll(async () => {
  await database?.drop();
});

const paid: CollectionTransaction = collectionTransaction();

const body = JSON.stringify(
  merchantCallback({ paymentReference: 'PR-1', controlNumber: '991001', amount: 15_000 }),
);

async function shop(name: string, options: { failFirstOnPaid?: boolean } = {}) {
  const open = stores.find(([each]) => each === name)?.[1];
  if (!open) throw new Error(`no store ${name}`);
  const clock = new TestClock();
  const store = await open(clock.now);
  opened.push(store);
  await store.records.create({
    merchantReference: 'order-1',
    product: 'collection',
    flow: 'mno',
    amount: 15_000,
    msisdn: '255754123456',
  });
  await moves(store).attachReferences('order-1', {
    controlNumber: '991001',
    paymentReference: 'PR-1',
  });
  await moves(store).transition('order-1', 'pending');
  const handled = { started: 0, completed: 0 };
  let pulls = 0;
  const receiver = new CallbackReceiver(
    {
      store,
      pull: async () => {
        pulls += 1;
        return paid;
      },
      now: clock.now,
    },
    {
      pollIntervalMs: 10,
      effectDrainIntervalMs: 10,
      retryDelaysMs: [60_000],
      inboxRetention: { keepMs: 7 * day, everyMs: 10 },
      onPaid: async () => {
        handled.started += 1;
        if (options.failFirstOnPaid && handled.started === 1) {
          throw new Error('fulfilment service unreachable');
        }
        handled.completed += 1;
      },
    },
  );
  receivers.push(receiver);
  const deliver = async () =>
    JSON.parse(
      (
        await receiver.receive({
          method: 'POST',
          url: '/callback',
          headers: { 'content-type': 'application/json' },
          body,
        })
      ).body,
    ) as { received: boolean; duplicate: boolean };
  return { store, clock, receiver, handled, deliver, pulls: () => pulls };
}

async function prunedByTheReceiver(store: ReferenceStore): Promise<void> {
  await eventually(async () => (await store.inbox.list()).length === 0, 15_000, 'the prune');
}

describe('a pruned callback delivered again never credits twice', () => {
  for (const [name] of stores) {
    it(`${name}: paid, processed, pruned, delivered again → stored, processed again, onPaid not run again`, async () => {
      const { store, clock, receiver, handled, deliver, pulls } = await shop(name);
      receiver.start();
      expect(await deliver()).toEqual({ received: true, duplicate: false });
      await receiver.onIdle();
      expect(handled).toEqual({ started: 1, completed: 1 });
      const [first] = await store.inbox.list();
      expect(first).toMatchObject({ status: 'done', outcome: 'paid' });
      // Within the retention, the same callback is a counted duplicate.
      expect(await deliver()).toEqual({ received: true, duplicate: true });

      clock.advance(8 * day);
      await prunedByTheReceiver(store);
      expect(await deliver()).toEqual({ received: true, duplicate: false });
      await receiver.onIdle();
      const [again] = await store.inbox.list();
      expect(again?.id).not.toBe(first?.id);
      expect(again).toMatchObject({ status: 'done', outcome: 'already_final', attempts: 1 });
      // The record was already final: nothing was pulled, nothing transitioned, no handler ran.
      expect(pulls()).toBe(1);
      expect(handled).toEqual({ started: 1, completed: 1 });
      const record = await store.records.get('order-1');
      expect(record?.status).toBe('success');
      expect(record?.effect.status).toBe('done');
    });

    it(`${name}: an effect still due when its entry is pruned runs once, and only once`, async () => {
      const { store, clock, receiver, handled, deliver } = await shop(name, {
        failFirstOnPaid: true,
      });
      receiver.start();
      await deliver();
      await receiver.onIdle();
      expect(handled).toEqual({ started: 1, completed: 0 });
      expect((await store.records.get('order-1'))?.effect.status).toBe('due');

      // Past the retention: the entry goes; the effect lives on the record and is not pruned.
      clock.advance(8 * day);
      await prunedByTheReceiver(store);
      await deliver();
      await receiver.onIdle();
      expect(handled).toEqual({ started: 2, completed: 1 });
      expect((await store.records.get('order-1'))?.effect.status).toBe('done');
      expect((await store.inbox.list())[0]).toMatchObject({ outcome: 'already_final' });
    });
  }
});
