import { afterEach, describe, expect, it } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { entriesPerRecordPerHour } from '../../src/callbacks/record-turns.js';
import { StatusPuller } from '../../src/callbacks/status-puller.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import type { CollectionTransaction } from '../../src/schemas/collection.js';
import { moves } from '../helpers/moves.js';
import { collectionTransaction, pendingCollection } from './collections.js';
import { merchantCallback } from './payloads.js';
import { eventually } from './receiver-server.js';

const receivers: CallbackReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

const body = JSON.stringify(
  merchantCallback({ paymentReference: 'PR-1', controlNumber: '991001', amount: 15_000 }),
);
const post = (receiver: CallbackReceiver, text = body) =>
  receiver.receive({
    method: 'POST',
    url: '/callback',
    headers: { 'content-type': 'application/json' },
    body: text,
  });

describe('the inbox worker', () => {
  it('retries a failed pull with backoff, then dead-letters the entry after maxAttempts', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    let calls = 0;
    const receiver = new CallbackReceiver(
      {
        store,
        pull: async () => {
          calls += 1;
          throw new Error('connect ECONNREFUSED 127.0.0.1:9');
        },
      },
      { maxAttempts: 3, retryDelaysMs: [20, 40], pollIntervalMs: 10 },
    );
    receivers.push(receiver);
    const errors: string[] = [];
    receiver.on('error', (event) => errors.push(event.stage));
    await post(receiver);
    receiver.start();
    const [dead] = await eventually(async () => {
      const list = await store.inbox.list({ status: 'dead' });
      return list.length > 0 ? list : undefined;
    });
    expect(calls).toBe(3);
    expect(dead).toMatchObject({ attempts: 3, outcome: 'dead' });
    expect(dead?.lastError).toMatch(/Gave up after 3 attempts: connect ECONNREFUSED/);
    expect(errors).toEqual(['process', 'process', 'process']);
    expect((await store.records.get('order-1'))?.status).toBe('pending');
  });

  it('a failed pull that later succeeds settles the record once', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    let calls = 0;
    const paid: string[] = [];
    const receiver = new CallbackReceiver(
      {
        store,
        pull: async () => {
          calls += 1;
          if (calls === 1) throw new Error('socket hang up');
          return collectionTransaction();
        },
      },
      {
        retryDelaysMs: [20],
        pollIntervalMs: 10,
        onPaid: (record) => {
          paid.push(record.merchantReference);
        },
      },
    );
    receivers.push(receiver);
    receiver.start();
    await post(receiver);
    await eventually(() => paid.length === 1);
    const [entry] = await store.inbox.list();
    expect(entry).toMatchObject({ status: 'done', outcome: 'paid', attempts: 2 });
    expect(entry?.lastError).toBe('socket hang up');
  });

  it('a receiver that dies holding a lease: another takes the entry over after it expires', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    // The first receiver claims the entry and never finishes (its pull hangs: a frozen process).
    let thaw: (answer: CollectionTransaction) => void = () => {};
    const frozen = new CallbackReceiver(
      {
        store,
        pull: () =>
          new Promise<CollectionTransaction>((resolve) => {
            thaw = resolve;
          }),
      },
      { leaseMs: 150, pollIntervalMs: 10, concurrency: 1 },
    );
    await post(frozen);
    frozen.start();
    await eventually(async () => (await store.inbox.list())[0]?.status === 'processing');
    const paid: string[] = [];
    const healthy = new CallbackReceiver(
      { store, pull: async () => collectionTransaction() },
      {
        pollIntervalMs: 10,
        onPaid: (record) => {
          paid.push(record.merchantReference);
        },
      },
    );
    receivers.push(healthy);
    healthy.start();
    await eventually(() => paid.length === 1);
    expect((await store.inbox.list())[0]).toMatchObject({ outcome: 'paid', attempts: 2 });
    // The frozen worker wakes up with a stale answer: its lease is gone, so it writes nothing.
    thaw(collectionTransaction({ status: 'pending', paid_amount: null }));
    await frozen.close();
    expect((await store.inbox.list())[0]).toMatchObject({ status: 'done', outcome: 'paid' });
    expect(paid).toEqual(['order-1']);
  });
});

describe('the handler contract: transition once, handler at least once until it completes', () => {
  it('onPaid that throws is run again by the effect drain, with the same effectKey, until it completes', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    const runs: Array<{ key: string; attempt: number }> = [];
    const paidEvents: string[] = [];
    const receiver = new CallbackReceiver(
      { store, pull: async () => collectionTransaction() },
      {
        pollIntervalMs: 10,
        effectDrainIntervalMs: 50,
        retryDelaysMs: [50],
        onPaid: (_record, context) => {
          runs.push({ key: context.effectKey, attempt: context.attempt });
          if (runs.length === 1) throw new Error('orders database unavailable');
        },
      },
    );
    receivers.push(receiver);
    receiver.on('paid', (event) => paidEvents.push(event.record.merchantReference));
    receiver.start();
    await post(receiver);
    await eventually(
      async () => (await store.records.get('order-1'))?.effect.status === 'done',
      15_000,
    );
    expect(runs).toEqual([
      { key: 'order-1', attempt: 1 },
      { key: 'order-1', attempt: 2 },
    ]);
    expect(paidEvents).toEqual(['order-1']);
    // The same callback again changes nothing: no second transition, no third run.
    await post(receiver);
    expect(runs).toHaveLength(2);
  });
});

describe('matching by the pesakit_ref hint', () => {
  async function lostInitiation(store: MemoryReferenceStore) {
    await store.records.create({
      merchantReference: 'order-lost',
      product: 'collection',
      flow: 'mno',
      amount: 15_000,
      msisdn: '255754123456',
    });
    await moves(store).transition('order-lost', 'unknown', { reason: 'timeout' });
  }

  it('a hinted record never takes the references of a transaction for another amount', async () => {
    const store = new MemoryReferenceStore();
    await lostInitiation(store);
    const orphans: string[] = [];
    const receiver = new CallbackReceiver(
      { store, pull: async () => collectionTransaction({ amount: 9_999, paid_amount: 9_999 }) },
      { pollIntervalMs: 10 },
    );
    receivers.push(receiver);
    receiver.on('orphan', (event) => orphans.push(event.verdict.reason));
    receiver.start();
    await receiver.receive({
      method: 'POST',
      url: '/callback?pesakit_ref=order-lost',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await eventually(() => orphans.length === 1);
    expect(await store.records.get('order-lost')).toMatchObject({
      status: 'unknown',
      controlNumber: null,
      paymentReference: null,
    });
  });

  it('a hint naming a record that already has other references is not a match', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store, { merchantReference: 'order-other' });
    let pulls = 0;
    const receiver = new CallbackReceiver(
      {
        store,
        pull: async () => {
          pulls += 1;
          return collectionTransaction();
        },
      },
      { pollIntervalMs: 10 },
    );
    receivers.push(receiver);
    const orphans: string[] = [];
    receiver.on('orphan', (event) => orphans.push(event.entryId));
    receiver.start();
    await receiver.receive({
      method: 'POST',
      url: '/callback?pesakit_ref=order-other',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        merchantCallback({ paymentReference: 'PR-X', controlNumber: '990099', amount: 15_000 }),
      ),
    });
    await eventually(() => orphans.length === 1);
    expect(pulls).toBe(0);
    expect((await store.records.get('order-other'))?.status).toBe('pending');
  });
});

describe('the amplification guard', () => {
  it('coalesces concurrent pulls of one reference into one call', async () => {
    let calls = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const puller = new StatusPuller(
      async () => {
        calls += 1;
        await gate;
        return collectionTransaction();
      },
      { perSecond: 100, concurrency: 4, windowMs: 40 },
    );
    const answers = Promise.all(Array.from({ length: 10 }, () => puller.pull('991001')));
    release();
    expect(await answers).toHaveLength(10);
    expect(calls).toBe(1);
    // The answer serves its window; after it, a new pull asks again.
    await puller.pull('991001');
    expect(calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await puller.pull('991001');
    expect(calls).toBe(2);
  });

  it('rate-limits pulls globally: no more than perSecond in any one-second window', async () => {
    const started: number[] = [];
    const puller = new StatusPuller(
      async () => {
        started.push(Date.now());
        return collectionTransaction();
      },
      { perSecond: 5, concurrency: 10, windowMs: 5000 },
    );
    const first = Date.now();
    await Promise.all(Array.from({ length: 8 }, (_, index) => puller.pull(`ref-${index}`)));
    expect(started).toHaveLength(8);
    // The sixth call had to wait for the next interval.
    const sorted = [...started].sort((a, b) => a - b);
    expect((sorted[5] ?? 0) - first).toBeGreaterThanOrEqual(900);
  });

  it('many forged callbacks for one payment: a handful stored, the rest 503, and one pull each time they are processed', async () => {
    const store = new MemoryReferenceStore();
    await pendingCollection(store);
    const receiver = new CallbackReceiver(
      { store, pull: async () => collectionTransaction({ status: 'pending', paid_amount: null }) },
      { pollIntervalMs: 10, recheckDelaysMs: [60_000], concurrency: 8 },
    );
    receivers.push(receiver);
    // Fifty different bodies that agree with the payment (different transaction ids): the
    // record's handful are stored, the rest refused until the hour is over.
    const statuses: number[] = [];
    for (let index = 0; index < 50; index += 1) {
      const answer = await post(
        receiver,
        JSON.stringify({
          ...JSON.parse(body),
          data: { ...JSON.parse(body).data, transactionID: `FORGED-${index}` },
        }),
      );
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(entriesPerRecordPerHour);
    expect(statuses.filter((status) => status === 503)).toHaveLength(50 - entriesPerRecordPerHour);
    receiver.start();
    await eventually(async () => {
      const waiting = await store.inbox.list({ status: 'pending', limit: 100 });
      return (
        waiting.length === entriesPerRecordPerHour && waiting.every((entry) => entry.attempts === 1)
      );
    });
    // One answer serves every claim naming the reference within its window.
    expect(receiver.pulls).toBe(1);
    expect((await store.records.get('order-1'))?.status).toBe('pending');
  });
});
