import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteCheckpointer } from '../../../src/references/sql/sqlite-checkpointer.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { callback } from '../../callbacks/inbox-conformance.js';

// One checkpoint policy per store file (issue #11): the store's own connection used to keep
// SQLite's automatic checkpoint, run inside whichever of its commits pushed the WAL past 1,000
// pages — on the event loop — while the inbox writer had a checkpointer thread of its own. Now
// the store opening owns one checkpointer thread, started at the first writes, for every
// connection of the file.
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function file(): string {
  const path = mkdtempSync(join(tmpdir(), 'pesakit-checkpointer-'));
  cleanups.push(() => rmSync(path, { recursive: true, force: true }));
  return join(path, 'store.sqlite');
}

/** A merchant's own handle in WAL mode: the store's connection, readable by the test. */
function handle(path: string): Database.Database {
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  cleanups.push(() => {
    database.close();
  });
  return database;
}

/** Worker threads of this process (the diagnostic report lists each). */
function threads(): number {
  return (process.report.getReport() as unknown as { workers: unknown[] }).workers.length;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function intents(store: SqliteReferenceStore, count: number, prefix = 'm'): Promise<void> {
  for (let n = 0; n < count; n++) {
    await store.createIntent({
      merchantReference: `${prefix}-${n}`,
      product: 'airtime',
      flow: 'airtime_purchase',
      amount: 1000,
    });
  }
}

const autocheckpoint = (database: Database.Database) =>
  Number(database.pragma('wal_autocheckpoint', { simple: true }));

describe('the SQLite store file checkpointer', () => {
  it('starts at the first writes, not at open; holds the backstop while it runs; close puts the handle back', async () => {
    const database = handle(file());
    database.pragma('wal_autocheckpoint = 1500'); // the merchant's own choice
    const before = threads();
    const store = await SqliteReferenceStore.open(database);
    // A store that never writes much starts no thread and changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect({ threads: threads() - before, pages: autocheckpoint(database) }).toEqual({
      threads: 0,
      pages: 1500,
    });
    await intents(store, 60);
    await until(() => autocheckpoint(database) === 4000, 'the backstop');
    await until(() => threads() - before === 1, 'the checkpointer thread');
    await store.close();
    expect({ threads: threads() - before, pages: autocheckpoint(database) }).toEqual({
      threads: 0,
      pages: 1500,
    });
  });

  it("copies the store connection's writes into the file off the event loop, before any commit could", async () => {
    // 50 intents write ~600 pages of WAL (measured: ~12 each): under SQLite's 1,000, so no
    // commit of the store ran a checkpoint; before, nothing copied them until 1,000 or close().
    const path = file();
    const store = await SqliteReferenceStore.open(path);
    cleanups.push(() => store.close());
    const size = statSync(path).size;
    await intents(store, 50);
    const frames = (statSync(`${path}-wal`).size - 32) / (4096 + 24);
    expect(frames).toBeLessThan(1000);
    await until(() => statSync(path).size > size, 'the database file to grow');
    const reader = new Database(path, { readonly: true });
    cleanups.push(() => {
      reader.close();
    });
    expect(
      (reader.prepare('select count(*) as n from pesakit_transactions').get() as { n: number }).n,
    ).toBe(50);
  });

  it('is the one the inbox writer pokes: one checkpointer thread for the file, not two', async () => {
    const database = handle(file());
    const before = threads();
    const store = await SqliteReferenceStore.open(database);
    cleanups.push(() => store.close());
    // Callbacks first: the writer thread starts, and with it the file's checkpointer.
    await Promise.all(Array.from({ length: 250 }, (_, n) => store.inbox.append(callback(`C${n}`))));
    expect(autocheckpoint(database)).toBe(4000);
    // Then money writes on the store's own connection: the same checkpointer serves them.
    await intents(store, 60);
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The writer thread and one checkpointer thread.
    expect(threads() - before).toBe(2);
    await store.close();
    expect(threads() - before).toBe(0);
  });

  it("never throws at a merchant's handle busy with an open iterator: it sets the backstop once the handle is free", async () => {
    // better-sqlite3 refuses every statement while an iterator is open on the connection; a
    // merchant's handle may keep one across an `await`. The writer thread can poke meanwhile.
    const database = handle(file());
    database.exec('create table t (n integer); insert into t values (1), (2)');
    const checkpointer = sqliteCheckpointer(database);
    if (!checkpointer) throw new Error('a file in WAL mode must get a checkpointer');
    cleanups.push(() => checkpointer.close());
    const rows = database.prepare('select n from t').iterate();
    rows.next();
    expect(() => checkpointer.poke()).not.toThrow();
    expect(checkpointer.pages()).toBe(4000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    rows.return?.();
    await until(() => autocheckpoint(database) === 4000, 'the backstop once the handle is free');
    await checkpointer.close();
    expect(autocheckpoint(database)).toBe(1000);
  });
});
