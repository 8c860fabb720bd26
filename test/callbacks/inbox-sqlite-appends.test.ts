import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { callback } from '../../src/testing/fixtures.js';
import { moves } from '../helpers/moves.js';

// The SQLite inbox commits each append on the store's connection. What must not change: an
// append resolves only once its row is committed, dedup holds among concurrent appends, one bad
// row does not take the others down, and an append never joins a store transaction.
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fileStore() {
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-inbox-appends-'));
  const file = join(directory, 'store.sqlite');
  const store = await SqliteReferenceStore.open(file);
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return { store, file };
}

describe('the SQLite inbox: appends', () => {
  it('an append resolves only when its row is committed: another connection sees it', async () => {
    const { store, file } = await fileStore();
    const reader = new Database(file, { readonly: true });
    cleanups.push(() => {
      reader.close();
    });
    const count = reader.prepare('select count(*) as n from pesakit_callback_inbox');
    const appends = Array.from({ length: 50 }, (_, i) => store.inbox.append(callback(`G${i}`)));
    const seen = await Promise.all(
      appends.map(async (append) => {
        await append;
        return (count.get() as { n: number }).n;
      }),
    );
    // Each caller, at the moment it is answered, finds at least its own row committed.
    for (const n of seen) expect(n).toBeGreaterThanOrEqual(1);
    expect((count.get() as { n: number }).n).toBe(50);
  });

  it('among concurrent appends, the second of two equal callbacks is a duplicate; the others are new', async () => {
    const { store } = await fileStore();
    const results = await Promise.all([
      store.inbox.append(callback('A')),
      store.inbox.append(callback('B')),
      store.inbox.append(callback('A')),
      store.inbox.append(callback('C')),
      store.inbox.append(callback('A')),
    ]);
    expect(results.map((result) => result.duplicate)).toEqual([false, false, true, false, true]);
    const first = results[0]?.entry;
    expect(results[2]?.entry.id).toBe(first?.id);
    expect(results[4]?.entry.duplicates).toBe(2);
    const stored = await store.inbox.list();
    expect(stored.map((entry) => entry.claim.paymentReference)).toEqual(['A', 'B', 'C']);
    expect(stored[0]).toMatchObject({ duplicates: 2, status: 'pending' });
    // What append answered for a new entry is what is stored.
    expect(await store.inbox.get(results[1]?.entry.id as string)).toEqual(results[1]?.entry);
  });

  it('a row the database refuses fails alone; the others are stored', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'pesakit-inbox-appends-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const database = new Database(join(directory, 'store.sqlite'));
    cleanups.push(() => {
      database.close();
    });
    const store = await SqliteReferenceStore.open(database);
    cleanups.push(() => store.close());
    database.exec(`create trigger refuse_bad before insert on pesakit_callback_inbox
      when new.payment_reference = 'BAD' begin select raise(abort, 'refused by a trigger'); end`);
    const results = await Promise.allSettled([
      store.inbox.append(callback('OK1')),
      store.inbox.append(callback('BAD')),
      store.inbox.append(callback('OK2')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/refused by a trigger/);
    const stored = await store.inbox.list();
    expect(stored.map((entry) => entry.claim.paymentReference)).toEqual(['OK1', 'OK2']);
  });

  it('appends wait for a store write in progress and never join its transaction', async () => {
    const { store } = await fileStore();
    await store.records.create({
      merchantReference: 'order-1',
      product: 'collection',
      flow: 'mno',
      amount: 15_000,
      msisdn: '255754123456',
    });
    // A transition (a Kysely transaction on the same connection) and appends, interleaved.
    const [, ...appended] = await Promise.all([
      moves(store).transition('order-1', 'pending'),
      store.inbox.append(callback('T1')),
      store.inbox.append(callback('T2')),
      moves(store)
        .transition('order-1', 'pending')
        .catch((error: unknown) => error),
    ]);
    expect(
      appended.slice(0, 2).map((result) => (result as { duplicate: boolean }).duplicate),
    ).toEqual([false, false]);
    expect(await store.inbox.list()).toHaveLength(2);
    expect((await store.records.get('order-1'))?.status).toBe('pending');
  });

  it('a closed store refuses appends', async () => {
    const { store } = await fileStore();
    await store.close();
    await expect(store.inbox.append(callback('X'))).rejects.toThrow();
  });
});
