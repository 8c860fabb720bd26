import { afterEach, describe, expect, it } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import { collectionTransaction, pendingCollection } from './collections.js';
import { merchantCallback } from './payloads.js';
import { eventually } from './receiver-server.js';

const receivers: CallbackReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

const post = (receiver: CallbackReceiver) =>
  receiver.receive({
    method: 'POST',
    url: '/callback',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      merchantCallback({ paymentReference: 'PR-1', controlNumber: '991001', amount: 15_000 }),
    ),
  });

/** A promise the test opens by hand. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Tracks whether a promise has settled yet, without waiting for it. */
function watch(promise: Promise<unknown>): { settled: boolean } {
  const state = { settled: false };
  void promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

describe('receiver.onIdle()', () => {
  it('resolves at once when there is nothing to do', async () => {
    const receiver = new CallbackReceiver({
      store: new MemoryReferenceStore(),
      pull: async () => collectionTransaction(),
    });
    receivers.push(receiver);
    await expect(receiver.onIdle()).resolves.toBeUndefined();
  });

  it('waits for the entry to be processed and the onPaid handler to complete', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    const handler = gate();
    const started = gate();
    let completed = 0;
    const receiver = new CallbackReceiver(
      { store, pull: async () => collectionTransaction() },
      {
        pollIntervalMs: 10,
        onPaid: async () => {
          started.open();
          await handler.opened;
          completed += 1;
        },
      },
    );
    receivers.push(receiver);
    receiver.start();
    expect((await post(receiver)).status).toBe(200);
    const idle = receiver.onIdle();
    const state = watch(idle);
    await started.opened;
    // The handler is running: the receiver is not idle, however long we look.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state.settled).toBe(false);
    handler.open();
    await idle;
    expect(completed).toBe(1);
    const record = await store.records.get('order-1');
    expect(record?.status).toBe('success');
    expect(record?.effect.status).toBe('done');
    expect(await store.inbox.backlog()).toEqual({ due: 0, processing: 0, scheduled: 0 });
  });

  it('waits for a receive() still being answered', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    const receiver = new CallbackReceiver(
      { store, pull: async () => collectionTransaction() },
      { pollIntervalMs: 10 },
    );
    receivers.push(receiver);
    receiver.start();
    // Called in the same tick as receive(): the append is in flight, nothing is stored yet.
    const answered = post(receiver);
    await receiver.onIdle();
    expect((await answered).status).toBe(200);
    expect((await store.records.get('order-1'))?.status).toBe('success');
    expect((await store.inbox.list())[0]).toMatchObject({ status: 'done', outcome: 'paid' });
  });

  it('does not wait for work scheduled later (an unconfirmed claim re-checked on a schedule)', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    const receiver = new CallbackReceiver(
      { store, pull: async () => collectionTransaction({ status: 'pending', paid_amount: null }) },
      { pollIntervalMs: 10, recheckDelaysMs: [60_000] },
    );
    receivers.push(receiver);
    receiver.start();
    await post(receiver);
    await receiver.onIdle();
    expect(await store.inbox.backlog()).toEqual({ due: 0, processing: 0, scheduled: 1 });
    expect((await store.records.get('order-1'))?.status).toBe('pending');
  });

  it('on a receiver that only receives, waits for another receiver on the store to do the work', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    const acknowledging = new CallbackReceiver(
      { store, pull: async () => collectionTransaction() },
      { pollIntervalMs: 10 },
    );
    const pull = gate();
    const pulling = gate();
    const processing = new CallbackReceiver(
      {
        store,
        pull: async () => {
          pulling.open();
          await pull.opened;
          return collectionTransaction();
        },
      },
      { pollIntervalMs: 10 },
    );
    receivers.push(acknowledging, processing);
    await post(acknowledging);
    const idle = acknowledging.onIdle();
    const state = watch(idle);
    processing.start();
    await pulling.opened;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The entry is processing in the other receiver: not idle.
    expect(state.settled).toBe(false);
    pull.open();
    await idle;
    expect((await store.records.get('order-1'))?.status).toBe('success');
    expect((await store.inbox.list())[0]).toMatchObject({ status: 'done', outcome: 'paid' });
  });

  it('does not wait for an effect retried later, and drains it once it is due', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    let runs = 0;
    const receiver = new CallbackReceiver(
      { store, pull: async () => collectionTransaction() },
      {
        pollIntervalMs: 10,
        effectDrainIntervalMs: 60_000,
        retryDelaysMs: [300],
        onPaid: () => {
          runs += 1;
          if (runs === 1) throw new Error('orders database unavailable');
        },
      },
    );
    receivers.push(receiver);
    receiver.start();
    await post(receiver);
    await receiver.onIdle();
    // The handler failed; its retry is scheduled later, like p-queue's delayed work: not due.
    const failed = await store.records.get('order-1');
    expect(failed?.effect.status).toBe('due');
    expect(runs).toBe(1);
    await eventually(async () => {
      const dueAt = (await store.records.get('order-1'))?.effect.dueAt;
      return dueAt !== null && dueAt !== undefined && dueAt <= new Date();
    });
    // Due now, and the drain timer is a minute away: onIdle has it drained and waits for it.
    await receiver.onIdle();
    expect(runs).toBe(2);
    expect((await store.records.get('order-1'))?.effect.status).toBe('done');
  });
});
