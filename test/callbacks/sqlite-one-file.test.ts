import { symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { runNode } from '../helpers/run-node.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';
import { confirmedPayment, seededCallback, seedPendingCollections } from './collections.js';

// Two callback receivers on one SQLite file in one process would fail with "database is locked"
// if each waited on its own: better-sqlite3 waits for the write lock synchronously, blocking the
// event loop,
// while the other store of the same process holds the lock across an await in its
// transaction: it can never commit, and the wait runs out. Stores of one process on one file
// now share a lock in the event loop (src/references/sqlite-open-files.ts). Separate processes
// take turns through busy_timeout and work.

const nextFile = temporarySqliteFiles('one-file');
const script = fileURLToPath(new URL('./fixtures/sqlite-receiver-process.ts', import.meta.url));
const closing: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const item of closing.splice(0).reverse()) await item.close();
});

/**
 * A receiver on each store (one store may be given twice), every one of the 40 seeded
 * callbacks delivered to each receiver at once: the answers, the paid references and errors.
 */
async function receiveOnEach(stores: SqliteReferenceStore[]) {
  const errors: string[] = [];
  const paid: string[] = [];
  const receivers = stores.map((store) => {
    const receiver = new CallbackReceiver(
      { store, pull: async (reference) => confirmedPayment(reference) },
      { pollIntervalMs: 10, onPaid: (record) => void paid.push(record.merchantReference) },
    );
    receiver.on('error', (event) => errors.push(event.error.message));
    closing.push(receiver);
    return receiver.start();
  });
  const statuses = await Promise.all(
    Array.from({ length: 40 }, (_, i) => receivers.map((r) => r.receive(seededCallback(i)))).flat(),
  );
  for (const receiver of receivers) await receiver.onIdle();
  return { statuses: statuses.map((response) => response.status), errors, paid };
}

describe('one SQLite file, one process', () => {
  it('two stores on the file (by its path and a symlink), a receiver on each, settle every callback once with no error', async () => {
    const file = nextFile();
    const first = await SqliteReferenceStore.open(file);
    closing.push(first);
    await seedPendingCollections(first, 40);
    const alias = `${file}.link`;
    symlinkSync(file, alias);
    const second = await SqliteReferenceStore.open(alias);
    closing.push(second);
    const { statuses, errors, paid } = await receiveOnEach([first, second]);
    expect(statuses).toEqual(Array(80).fill(200));
    expect(errors).toEqual([]);
    expect(new Set(paid).size).toBe(40);
    expect(paid).toHaveLength(40);
    for (const store of [first, second]) {
      expect((await store.records.get('order-39'))?.status).toBe('success');
    }
  });

  it('a store on a handle of your own shares the file with a store pesakit opened', async () => {
    const file = nextFile();
    const first = await SqliteReferenceStore.open(file);
    closing.push(first);
    const handle = new Database(file);
    handle.pragma('busy_timeout = 5000');
    closing.push({ close: () => void handle.close() });
    const second = await SqliteReferenceStore.open(handle);
    closing.push(second);
    await Promise.all([seedPendingCollections(first, 20), seedPendingCollections(second, 20, 20)]);
    expect((await second.records.get('order-0'))?.status).toBe('pending');
    expect((await first.records.get('order-39'))?.status).toBe('pending');
  });

  it('two receivers sharing the one store receive and settle every callback once', async () => {
    const store = await SqliteReferenceStore.open(nextFile());
    closing.push(store);
    await seedPendingCollections(store, 40);
    const { statuses, errors, paid } = await receiveOnEach([store, store]);
    expect(statuses).toEqual(Array(80).fill(200));
    expect(errors).toEqual([]);
    expect(new Set(paid).size).toBe(40);
    expect(paid).toHaveLength(40);
  });
});

describe('one SQLite file, two processes', () => {
  it('both receive the same callbacks, with no error, and each payment is settled once', async () => {
    const file = nextFile();
    const seed = await SqliteReferenceStore.open(file);
    await seedPendingCollections(seed, 100);
    await seed.close();

    const runs = await Promise.all(
      [0, 1].map(() => runNode(['--import', 'tsx', script, file, '100'])),
    );
    const results = runs.map((run) => {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      return JSON.parse(run.stdout.trim()) as {
        refused: number[];
        errors: string[];
        paid: string[];
      };
    });
    for (const result of results) {
      expect(result.refused).toEqual([]);
      expect(result.errors).toEqual([]);
    }
    const paid = results.flatMap((result) => result.paid);
    expect(paid).toHaveLength(100);
    expect(new Set(paid).size).toBe(100);
    const store = await SqliteReferenceStore.open(file);
    closing.push(store);
    for (const i of [0, 50, 99]) {
      expect((await store.records.get(`order-${i}`))?.status).toBe('success');
    }
  }, 60_000);
});
