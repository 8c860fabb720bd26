import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { InboxInsert } from '../../src/references/inbox/sqlite-group-write.js';
import { sqliteInboxWriter } from '../../src/references/inbox/sqlite-inbox-writer.js';
import { sqliteCheckpointer } from '../../src/references/sql/sqlite-checkpointer.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { inboxInsertFor } from './inbox-conformance.js';

// A thread of the store file dies mid-run: what each of the inbox's falls back to. Every Worker
// made in this file's modules is recorded, so a test can terminate the one it means (told apart
// by their workerData: the checkpointer's carries `settleMs`, the writer's `insertSql`).
//
// The checkpointer. While it runs, every connection to the file (the store's and the inbox
// writer's) keeps only a high backstop `wal_autocheckpoint`, and nothing but the thread copies
// the WAL into the file. Should the thread die mid-run, each connection must get SQLite's
// default back — otherwise the WAL would grow to the 4,000-page backstop before anything copied
// it. The cannot-start case has its own test (sqlite-checkpointer-fallback.test.ts); this one
// kills a running thread.
//
// The writer. It dies with groups in flight: nobody waiting may be told their callback is
// stored (the platform sends it again), and the inbox must not stay broken — the next group
// starts a thread anew.
const threads = vi.hoisted(() => [] as Array<{ worker: Worker; data: unknown }>);
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:worker_threads')>();
  class RecordedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      threads.push({ worker: this, data: args[1]?.workerData });
    }
  }
  return { ...actual, Worker: RecordedWorker };
});

afterEach(() => {
  threads.length = 0;
});

const dir = mkdtempSync(join(tmpdir(), 'pesakit-thread-dies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A handle on a store file the store made (the schema), opened as the store opening does. */
async function storeFileHandle(name: string): Promise<Database.Database> {
  const file = join(dir, name);
  await (await SqliteReferenceStore.open(file)).close();
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  return database;
}

describe('the store file whose checkpointer thread dies mid-run', () => {
  it("gives the store's connection and the inbox writer's SQLite's default automatic checkpoint back", async () => {
    const database = await storeFileHandle('checkpointer.sqlite');
    const checkpointer = sqliteCheckpointer(database);
    const writer = sqliteInboxWriter(database);
    if (!checkpointer || !writer) throw new Error('a file in WAL mode gets both threads');
    try {
      expect(await writer.write([inboxInsertFor('DIES', 'BEFORE')])).toEqual([
        { kind: 'inserted' },
      ]);
      // Running: the backstop on both connections.
      expect((await writer.settings()).walAutocheckpoint).toBe(4000);
      expect(Number(database.pragma('wal_autocheckpoint', { simple: true }))).toBe(4000);

      const started = threads.filter(({ data }) => isCheckpointer(data));
      expect(started).toHaveLength(1);
      await started[0]?.worker.terminate();

      await until(
        async () => (await writer.settings()).walAutocheckpoint === 1000,
        "the writer's connection is back at 1000 pages",
      );
      await until(
        () => Number(database.pragma('wal_autocheckpoint', { simple: true })) === 1000,
        "the store's connection is back at 1000 pages",
      );
      // And the writer goes on: callbacks are still stored, and the checkpointer is not
      // restarted behind the connections' backs.
      expect(await writer.write([inboxInsertFor('DIES', 'AFTER')])).toEqual([{ kind: 'inserted' }]);
      expect(checkpointer.pages()).toBe(1000);
      expect((await writer.settings()).walAutocheckpoint).toBe(1000);
    } finally {
      await writer.close();
      await checkpointer.close();
      database.close();
    }
  });
});

describe('the SQLite inbox writer whose thread dies with groups in flight', () => {
  it('refuses them (none stored, none acknowledged), and the next group starts a new thread', async () => {
    const database = await storeFileHandle('writer.sqlite');
    const writer = sqliteInboxWriter(database);
    if (!writer) throw new Error('a file in WAL mode gets a writer thread');
    try {
      expect(await writer.write([inboxInsertFor('DIES', 'WARM')])).toEqual([{ kind: 'inserted' }]);
      // The thread crashes on a group that is not an array (an uncaught TypeError) with the
      // next group queued behind it, never read. (Not worker.terminate(): terminating a thread
      // inside a failing better-sqlite3 call aborts the whole process, a fatal V8 error.)
      const crashing = writer.write(null as unknown as InboxInsert[]);
      const queued = writer.write([inboxInsertFor('DIES', 'QUEUED')]);
      await expect(crashing).rejects.toThrow();
      await expect(queued).rejects.toThrow();
      expect(threads.filter(({ data }) => isWriter(data))).toHaveLength(1);

      expect(await writer.write([inboxInsertFor('DIES', 'AFTER')])).toEqual([{ kind: 'inserted' }]);
      expect(threads.filter(({ data }) => isWriter(data))).toHaveLength(2);
      const stored = database
        .prepare('select payment_reference as reference from pesakit_callback_inbox')
        .all() as Array<{ reference: string }>;
      expect(stored.map(({ reference }) => reference).sort()).toEqual(['AFTER', 'WARM']);
    } finally {
      await writer.close();
      database.close();
    }
  });
});

function isCheckpointer(workerData: unknown): boolean {
  return typeof workerData === 'object' && workerData !== null && 'settleMs' in workerData;
}

function isWriter(workerData: unknown): boolean {
  return typeof workerData === 'object' && workerData !== null && 'insertSql' in workerData;
}
