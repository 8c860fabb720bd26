import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { entriesPerRecordPerHour } from '../../src/callbacks/record-turns.js';
import { sourceKey } from '../../src/callbacks/source-budget.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import type { ReferenceStore } from '../../src/references/types.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { TestClock } from '../helpers/test-clock.js';
import { collectionTransaction, controlNumberOf, seedPendingCollections } from './collections.js';
import { merchantCallback } from './payloads.js';

// The platform is never throttled: a callback for an open record that agrees with it is capped
// per record, never by its address. Everything else is budgeted per source (per /64 for IPv6),
// per process, and by the inbox's backlog; a 503 with Retry-After stores nothing.

const receivers: Array<{ receiver: CallbackReceiver; store: ReferenceStore }> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const { receiver, store } of receivers.splice(0)) {
    await receiver.close();
    await store.close();
  }
});

async function open(
  options: ConstructorParameters<typeof CallbackReceiver>[1] = {},
  clock = new TestClock(),
) {
  const store = await SqliteReferenceStore.open(':memory:', { now: clock.now });
  const receiver = new CallbackReceiver(
    { store, pull: async () => collectionTransaction(), now: clock.now },
    { pollIntervalMs: 10, ...options },
  );
  receivers.push({ receiver, store });
  const post = async (callback: unknown, source = '198.51.100.7', query = '') =>
    (
      await receiver.receive({
        method: 'POST',
        url: `/callback${query}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(callback),
        source,
      })
    ).status;
  return { store, receiver, post, clock };
}

/** The platform's callback for the test's `i`-th pending collection (`order-<i>`). */
const genuine = (i: number) =>
  merchantCallback({
    paymentReference: `PR-${i}`,
    controlNumber: controlNumberOf(i),
    amount: 15_000,
    transactionID: `TX-${i}`,
  });
const orphan = (n: number) =>
  merchantCallback({
    paymentReference: `PR-ORPHAN-${n}`,
    controlNumber: String(770_000 + n),
    amount: 15_000,
  });

describe('the callback budgets', () => {
  it('genuine callbacks from one address are never refused for its budget; orphans from it are', async () => {
    const shop = await open({ sourceBudget: { callbacksPerMinute: 2 } });
    await seedPendingCollections(shop.store, 20);
    for (let i = 0; i < 20; i += 1) expect(await shop.post(genuine(i))).toBe(200);
    expect(await shop.post(orphan(1))).toBe(200);
    expect(await shop.post(orphan(2))).toBe(200);
    expect(await shop.post(orphan(3))).toBe(503);
    // A claim at odds with its record (another amount) is not the record's: budgeted too.
    expect(await shop.post({ ...genuine(5), data: { ...genuine(5).data, amount: 1 } })).toBe(503);
    expect(await shop.store.inbox.list({ limit: 100 })).toHaveLength(22);
    // Still none refused, however many orphans came first.
    expect(await shop.post(genuine(5))).toBe(200);
  });

  it('a record takes a handful of distinct callbacks an hour; a redelivery of one of them is always taken', async () => {
    const shop = await open();
    await seedPendingCollections(shop.store, 1);
    const distinct = (n: number) => ({
      ...genuine(0),
      data: { ...genuine(0).data, transactionID: `T${n}` },
    });
    for (let n = 0; n < entriesPerRecordPerHour; n += 1)
      expect(await shop.post(distinct(n))).toBe(200);
    const refused = await shop.receiver.receive({
      method: 'POST',
      url: '/callback',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(distinct(99)),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('60');
    expect(JSON.parse(refused.body).message).toMatch(/Nothing was stored/);
    expect(await shop.post(distinct(0))).toBe(200); // a duplicate
    expect(await shop.store.inbox.list({ limit: 100 })).toHaveLength(entriesPerRecordPerHour);
    // The hour is counted on the process's clock.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_001 });
    expect(await shop.post(distinct(99))).toBe(200);
  });

  it('an IPv6 /64 is one source; another /64 has its own budget; the budget refills', async () => {
    const shop = await open({ sourceBudget: { callbacksPerMinute: 2 } });
    expect(await shop.post(orphan(1), '2001:db8:1:2::1')).toBe(200);
    expect(await shop.post(orphan(2), '2001:db8:1:2:ffff:ffff:ffff:9')).toBe(200);
    expect(await shop.post(orphan(3), '2001:db8:1:2::abcd')).toBe(503);
    expect(await shop.post(orphan(4), '2001:db8:1:3::1')).toBe(200);
    // Half a minute refills one callback's worth at two a minute.
    shop.clock.advance(30_000);
    expect(await shop.post(orphan(5), '2001:db8:1:2::1')).toBe(200);
    expect(await shop.post(orphan(6), '2001:db8:1:2::1')).toBe(503);
  });

  it('bytes count too: per source and for every source together', async () => {
    const size = Buffer.byteLength(JSON.stringify(orphan(1))) + '/callback'.length;
    const perSource = await open({ sourceBudget: { bytesPerMinute: size + 10 } });
    expect(await perSource.post(orphan(1))).toBe(200);
    expect(await perSource.post(orphan(2))).toBe(503);
    const together = await open({ sourceBudget: { totalBytesPerMinute: size * 2 + 10 } });
    const answers = [];
    for (let n = 0; n < 3; n += 1) answers.push(await together.post(orphan(n), `203.0.113.${n}`));
    expect(answers).toEqual([200, 200, 503]);
  });

  it('every source together has a budget per process', async () => {
    const shop = await open({
      sourceBudget: { callbacksPerMinute: 100, totalCallbacksPerMinute: 3 },
    });
    const answers = [];
    for (let n = 0; n < 5; n += 1) answers.push(await shop.post(orphan(n), `203.0.113.${n}`));
    expect(answers).toEqual([200, 200, 200, 503, 503]);
  });

  it('while the inbox holds maxBacklog unfinished entries, orphans wait; genuine callbacks do not', async () => {
    const shop = await open({ sourceBudget: { maxBacklog: 3 } });
    await seedPendingCollections(shop.store, 1);
    for (let n = 0; n < 3; n += 1) expect(await shop.post(orphan(n), `203.0.113.${n}`)).toBe(200);
    // The backlog is counted at most once a second.
    shop.clock.advance(1_001);
    expect(await shop.post(orphan(9), '203.0.113.9')).toBe(503);
    expect(await shop.post(genuine(0))).toBe(200);
  });

  it('false: no budget at all for orphans (the record cap stays)', async () => {
    const shop = await open({ sourceBudget: false });
    for (let n = 0; n < 50; n += 1) expect(await shop.post(orphan(n))).toBe(200);
  });
});

describe('sourceKey', () => {
  it('an IPv4 address is itself (mapped into IPv6 too); an IPv6 address is its /64', () => {
    expect(sourceKey('198.51.100.7')).toBe('198.51.100.7');
    expect(sourceKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(sourceKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(sourceKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(sourceKey('::1')).toBe('0:0:0:0::/64');
    expect(sourceKey('not an address')).toBe('not an address');
  });
});

describe('inboxRetention.orphanKeepMs', () => {
  it('entries that changed nothing go after orphanKeepMs; the ones that settled a payment stay keepMs', async () => {
    const clock = new TestClock();
    const store = new MemoryReferenceStore({ now: clock.now });
    for (const [reference, outcome] of [
      ['A', 'orphan'],
      ['B', 'already_final'],
      ['C', 'paid'],
    ] as const) {
      await store.inbox.append({
        dedupKey: `key-${reference}`,
        method: 'POST',
        url: '/callback',
        headers: {},
        body: '{}',
        claim: {
          status: 'success',
          amount: 1,
          paymentReference: reference,
          controlNumber: null,
          externalReference: null,
          transactionId: null,
          merchantReferenceHint: null,
        },
      });
      const [claimed] = await store.inbox.claim({ leaseMs: 60_000, limit: 1 });
      await store.inbox.finish(claimed!.entry.id, claimed!.token, {
        status: 'done',
        outcome: outcome,
      });
    }
    clock.advance(2 * 3_600_000);
    const receiver = new CallbackReceiver(
      { store, pull: async () => collectionTransaction(), now: clock.now },
      { pollIntervalMs: 10, inboxRetention: { everyMs: 3_600_000 } },
    );
    receivers.push({ receiver, store });
    receiver.start();
    await expect
      .poll(async () => (await store.inbox.list()).map((entry) => entry.claim.paymentReference), {
        timeout: 10_000,
      })
      .toEqual(['C']);
  });
});
