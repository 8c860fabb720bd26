import { afterEach, describe, expect, it } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { entriesPerRecordPerHour } from '../../src/callbacks/record-turns.js';
import { defaultPullLimits, StatusPuller } from '../../src/callbacks/status-puller.js';
import { NotFoundError } from '../../src/errors/not-found-error.js';
import type { ReferenceStore } from '../../src/references/types.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { moves } from '../helpers/moves.js';
import { collectionTransaction, pendingCollection } from './collections.js';
import { merchantCallback } from './payloads.js';
import { eventually } from './receiver-server.js';

// Forged callbacks cost a row each and nothing more: a known record's callback is worked before
// them, an orphan reference is pulled and reviewed once, not once per callback.

const opened: Array<{ receiver: CallbackReceiver; store: ReferenceStore }> = [];
afterEach(async () => {
  for (const { receiver, store } of opened.splice(0)) {
    await receiver.close();
    await store.close();
  }
});

const notFound = () =>
  new NotFoundError('Not found', {
    status: 404,
    body: { message: 'Not found' },
    headers: new Headers(),
    method: 'POST',
    path: '/api/collection/status',
  });

async function open(
  pull: (reference: string) => Promise<never> | Promise<unknown>,
  options: ConstructorParameters<typeof CallbackReceiver>[1] = { concurrency: 1 },
  pullWindowMs = defaultPullLimits.windowMs,
) {
  const store = await SqliteReferenceStore.open(':memory:');
  const reviews: Array<string | null> = [];
  const paid: Array<{ merchantReference: string; reviewsBefore: number }> = [];
  const receiver = new CallbackReceiver(
    {
      store,
      pull: pull as never,
      puller: new StatusPuller(pull as never, { ...defaultPullLimits, windowMs: pullWindowMs }),
    },
    {
      ...options,
      pollIntervalMs: 10,
      onPaid: (record) => {
        paid.push({ merchantReference: record.merchantReference, reviewsBefore: reviews.length });
      },
      onReview: (record) => {
        reviews.push(record?.merchantReference ?? null);
      },
    },
  );
  opened.push({ receiver, store });
  const post = (callback: unknown, query = '') =>
    receiver.receive({
      method: 'POST',
      url: `/callback${query}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(callback),
    });
  return { store, receiver, reviews, paid, post };
}

/** A forged success claim; `reference` makes several name one transaction, in other bodies. */
const forgery = (n: number, reference?: string) =>
  merchantCallback({
    paymentReference: reference ?? `PR-FORGED-${n}`,
    controlNumber: reference ?? String(880_000 + n),
    amount: 15_000,
    transactionID: `FORGED-${n}`,
  });

describe('forged callbacks', () => {
  it("a known record's callback is worked before the orphans that arrived ahead of it", async () => {
    const shop = await open(async () => collectionTransaction());
    await pendingCollection(shop.store);
    for (let n = 0; n < 20; n += 1) expect((await shop.post(forgery(n))).status).toBe(200);
    await shop.post(
      merchantCallback({ paymentReference: 'PR-1', controlNumber: '991001', amount: 15_000 }),
    );
    shop.receiver.start();
    await eventually(() => shop.reviews.length === 20, 10_000, 'every orphan reviewed');
    expect(shop.paid).toEqual([{ merchantReference: 'order-1', reviewsBefore: 0 }]);
  });

  it('an orphan reference reaches onReview(null) once, however many callbacks name it', async () => {
    const shop = await open(async () => collectionTransaction());
    for (let n = 0; n < 5; n += 1) await shop.post(forgery(n, 'PR-STRAY'));
    shop.receiver.start();
    await shop.receiver.onIdle();
    expect(shop.reviews).toEqual([null]);
    expect(await shop.store.inbox.list({ outcome: 'orphan' })).toHaveLength(5);
  });

  it('a reference the platform does not know is pulled once, not once per callback', async () => {
    let pulls = 0;
    const shop = await open(async () => {
      pulls += 1;
      throw notFound();
    });
    // A record whose initiation answer was lost: found only by the pesakit_ref hint.
    await shop.store.records.create({
      merchantReference: 'order-lost',
      product: 'collection',
      flow: 'mno',
      amount: 15_000,
      msisdn: '255754123456',
    });
    await moves(shop.store).transition('order-lost', 'unknown', { reason: 'timeout' });
    for (let n = 0; n < 5; n += 1) {
      await shop.post(forgery(n, 'PR-NAMING-LOST'), '?pesakit_ref=order-lost');
    }
    shop.receiver.start();
    await shop.receiver.onIdle();
    expect(pulls).toBe(1);
    expect(shop.reviews).toEqual([null]);
    expect((await shop.store.records.get('order-lost'))?.status).toBe('unknown');
  });

  it('1,000 forgeries naming one real unknown record take its one turn: a genuine callback for another order goes next, the record is pulled once', async () => {
    let pulls = 0;
    let pullsToTheGenuine: number | undefined;
    const { store, receiver, reviews, paid, post } = await open(
      async (reference: string) => {
        pulls += 1;
        if (reference !== '991001') throw notFound();
        pullsToTheGenuine = pulls;
        return collectionTransaction();
      },
      {},
      // One window for the whole test, so that "once a window" is "once".
      60_000,
    );
    await store.records.create({
      merchantReference: 'order-lost',
      product: 'collection',
      flow: 'mno',
      amount: 15_000,
      msisdn: '255754123456',
    });
    await moves(store).transition('order-lost', 'unknown', { reason: 'timeout' });
    await pendingCollection(store);
    // Each forgery its own reference: before, each was stored, a new pull, and went first. They
    // agree with the record (it has no reference to contradict), so the record's cap holds them.
    const statuses: number[] = [];
    for (let n = 0; n < 1_000; n += 1) {
      statuses.push((await post(forgery(n), '?pesakit_ref=order-lost')).status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(entriesPerRecordPerHour);
    expect(statuses.filter((status) => status === 503)).toHaveLength(
      1_000 - entriesPerRecordPerHour,
    );
    await post(
      merchantCallback({ paymentReference: 'PR-1', controlNumber: '991001', amount: 15_000 }),
    );
    receiver.start();
    await eventually(() => paid.length === 1, 10_000, 'the genuine order is paid');
    // At most the forgeries' one pull went ahead of the genuine callback's.
    expect(pullsToTheGenuine).toBeLessThanOrEqual(2);
    await eventually(() => reviews.length === 1, 10_000, 'the forgeries reviewed once');
    expect(reviews).toEqual([null]);
    expect(pulls).toBe(2);
    // Not dropped: the stored ones wait their turn, due again later.
    expect((await store.inbox.backlog()).scheduled).toBe(entriesPerRecordPerHour - 1);
    expect((await store.records.get('order-lost'))?.status).toBe('unknown');
  });

  it("a pull that failed before the platform answered gives the record's turn back", async () => {
    let pulls = 0;
    const shop = await open(
      async () => {
        pulls += 1;
        if (pulls === 1) throw new Error('platform unreachable');
        throw notFound();
      },
      {},
      60_000,
    );
    await shop.store.records.create({
      merchantReference: 'order-lost',
      product: 'collection',
      flow: 'mno',
      amount: 15_000,
      msisdn: '255754123456',
    });
    await moves(shop.store).transition('order-lost', 'unknown', { reason: 'timeout' });
    await shop.post(forgery(1), '?pesakit_ref=order-lost');
    shop.receiver.start();
    await eventually(() => pulls === 1, 5_000, 'the first pull');
    // Within the window, yet pulled: the failed pull did not use the record's turn up.
    await shop.post(forgery(2), '?pesakit_ref=order-lost');
    await eventually(() => pulls === 2, 5_000, 'the second callback pulled');
  });
});
