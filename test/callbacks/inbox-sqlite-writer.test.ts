import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteInboxWriter } from '../../src/references/inbox/sqlite-inbox-writer.js';
import { sqliteCheckpointer } from '../../src/references/sql/sqlite-checkpointer.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { closeInScript } from '../helpers/sqlite-file-store.js';
import { callback, inboxInsertFor } from './inbox-conformance.js';
import { merchantCallback } from './payloads.js';

// The SQLite inbox commits on a writer thread with its own connection (WAL), so the event loop
// is free during the commit and its fsync. What must not change: an append is answered only
// after the commit that holds it, a crash loses no acknowledged callback, the store's connection
// is shared fairly, and close() answers what is in flight and refuses the rest.
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function directory(): string {
  const path = mkdtempSync(join(tmpdir(), 'pesakit-inbox-writer-'));
  cleanups.push(() => rmSync(path, { recursive: true, force: true }));
  return path;
}

function opened(file: string, options?: Database.Options): Database.Database {
  const database = new Database(file, options);
  cleanups.push(() => {
    database.close();
  });
  return database;
}

describe('the SQLite inbox writer thread', () => {
  it('is used for a file in WAL mode, and not for :memory: or another journal mode', () => {
    const wal = opened(join(directory(), 'wal.sqlite'));
    wal.pragma('journal_mode = WAL');
    expect(sqliteInboxWriter(wal)).toBeDefined();
    expect(sqliteInboxWriter(opened(':memory:'))).toBeUndefined();
    const rollback = opened(join(directory(), 'delete.sqlite'));
    rollback.pragma('journal_mode = DELETE');
    expect(sqliteInboxWriter(rollback)).toBeUndefined();
  });

  it('answers an append only after its commit, and the event loop runs while it waits', async () => {
    const file = join(directory(), 'store.sqlite');
    const store = await SqliteReferenceStore.open(file);
    cleanups.push(() => store.close());
    await store.inbox.append(callback('WARM')); // the thread is running
    // Another connection holds the write lock: the commit must wait for it (busy_timeout).
    const blocker = opened(file);
    blocker.exec('begin immediate');
    let answered = false;
    const append = store.inbox.append(callback('HELD')).then((result) => {
      answered = true;
      return result;
    });
    // With the commit on the event loop, this timer could not fire until the lock was free;
    // the lock is only freed after it fired.
    const ticks = await new Promise<number>((resolve) => {
      let count = 0;
      const timer = setInterval(() => {
        count += 1;
        if (count === 5) {
          clearInterval(timer);
          resolve(count);
        }
      }, 20);
    });
    expect(ticks).toBe(5);
    expect(answered).toBe(false);
    blocker.exec('commit');
    const { duplicate } = await append;
    expect(duplicate).toBe(false);
    const reader = opened(file, { readonly: true });
    expect(
      reader
        .prepare('select count(*) as n from pesakit_callback_inbox where payment_reference = ?')
        .get('HELD'),
    ).toEqual({ n: 1 });
  });

  it('a steady flow of callbacks does not starve the store: a read waits for one group at most', async () => {
    const store = await SqliteReferenceStore.open(join(directory(), 'store.sqlite'));
    cleanups.push(() => store.close());
    let flowing = true;
    let sent = 0;
    const appends: Promise<unknown>[] = [];
    // New callbacks on every turn of the event loop, for up to 3 s.
    const flow = (async () => {
      const until = Date.now() + 3_000;
      while (flowing && Date.now() < until) {
        for (let i = 0; i < 10; i += 1) appends.push(store.inbox.append(callback(`F${sent++}`)));
        await new Promise((resolve) => setImmediate(resolve));
      }
      flowing = false;
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The store's connection is shared with the inbox's commits; this needs it too.
    await store.inbox.backlog();
    const answeredWhileFlowing = flowing;
    flowing = false;
    await flow;
    await Promise.all(appends);
    expect(answeredWhileFlowing).toBe(true);
    expect((await store.inbox.backlog()).due).toBe(sent);
  });

  it('close() answers the appends already made and stops the thread; later appends are refused', async () => {
    const file = join(directory(), 'store.sqlite');
    const store = await SqliteReferenceStore.open(file);
    const appends = Array.from({ length: 20 }, (_, i) => store.inbox.append(callback(`C${i}`)));
    const settled = Promise.allSettled(appends);
    await store.close();
    const outcomes = await settled;
    await expect(store.inbox.append(callback('LATE'))).rejects.toThrow(/closed/);
    // Every append that was answered "stored" is in the file.
    const stored = opened(file, { readonly: true })
      .prepare('select payment_reference as reference from pesakit_callback_inbox')
      .all() as Array<{ reference: string }>;
    const acknowledged = outcomes.flatMap((outcome, i) =>
      outcome.status === 'fulfilled' ? [`C${i}`] : [],
    );
    expect(stored.map((row) => row.reference).sort()).toEqual(acknowledged.sort());
  });
});

describe('kill -9 of a process acknowledging callbacks into SQLite', () => {
  const script = fileURLToPath(new URL('./fixtures/sqlite-ack-process.ts', import.meta.url));
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('loses no callback that was answered 200', async () => {
    const file = join(directory(), 'store.sqlite');
    child = spawn(process.execPath, ['--import', 'tsx', script, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const running = child;
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      running.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const ready = /READY (\S+)/.exec(stdout);
        if (ready?.[1]) resolve(ready[1]);
      });
      running.once('exit', (code) => reject(new Error(`the receiver exited (${code})`)));
    });
    const exited = new Promise((resolve) => running.once('exit', resolve));
    const acknowledged: string[] = [];
    const deliver = async (n: number) => {
      const paymentReference = `CRASH${n}`;
      const body = merchantCallback({
        paymentReference,
        controlNumber: String(990_100_000 + n),
        amount: 15_000,
      });
      try {
        const response = await fetch(`${url}/callback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (response.status === 200) acknowledged.push(paymentReference);
      } catch {
        // Killed before it answered: not acknowledged, so the platform would send it again.
      }
    };
    // Callbacks keep arriving; the process is killed once 100 were acknowledged, mid-flow.
    let next = 0;
    const senders = Array.from({ length: 16 }, async () => {
      while (running.exitCode === null && running.signalCode === null && next < 5_000) {
        await deliver(next++);
        if (acknowledged.length >= 100 && !running.killed) running.kill('SIGKILL');
      }
    });
    await Promise.all(senders);
    await exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(100);
    const stored = new Set(
      (
        opened(file)
          .prepare('select payment_reference as reference from pesakit_callback_inbox')
          .all() as Array<{ reference: string }>
      ).map((row) => row.reference),
    );
    expect(acknowledged.filter((reference) => !stored.has(reference))).toEqual([]);
  }, 60_000);

  it('copies the WAL into the database file on a thread of its own, not in a commit', async () => {
    // SQLite's automatic checkpoint runs inside the commit that pushes the WAL past 1,000
    // pages: every callback of that group (and those queued behind it) waited for it. Now the
    // writer pokes a checkpointer thread every 200 callbacks. One group of 250 callbacks writes
    // far fewer than 1,000 pages, so before this only close() would have copied them.
    const file = join(directory(), 'store.sqlite');
    const store = await SqliteReferenceStore.open(file);
    cleanups.push(() => store.close());
    await store.inbox.append(callback('WARM'));
    const before = statSync(file).size;
    await Promise.all(Array.from({ length: 250 }, (_, n) => store.inbox.append(callback(`C${n}`))));
    // Observe the end state: the file grows once a checkpoint has copied the new pages.
    const deadline = Date.now() + 20_000;
    while (statSync(file).size <= before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(statSync(file).size).toBeGreaterThan(before);
    // And the rows are there for any other connection to read.
    const reader = opened(file, { readonly: true });
    expect(
      (reader.prepare('select count(*) as n from pesakit_callback_inbox').get() as { n: number }).n,
    ).toBe(251);
  });
});

describe('closing a store with a writer thread', () => {
  it('lets a script end normally: close() resolves with nothing else keeping the process alive', async () => {
    const file = join(directory(), 'store.sqlite');
    expect(await closeInScript('inbox', file)).toEqual({
      code: 0,
      stdout: 'CLOSED duplicate=false',
    });
    const reader = opened(file, { readonly: true });
    expect(
      (reader.prepare('select count(*) as n from pesakit_callback_inbox').get() as { n: number }).n,
    ).toBe(1);
  }, 30_000);
});

describe('the SQLite inbox writer connection', () => {
  it('keeps its backstop wal_autocheckpoint while the checkpointer runs, and fsyncs every commit', async () => {
    // The checkpointer thread copies the WAL; the writer's own automatic checkpoint stays on,
    // set high, so that the WAL stays bounded should the checkpointer fall behind. Off (0), the
    // WAL could grow without limit; at SQLite's default (1,000) the checkpointer is not running
    // and commits checkpoint inside themselves again (the stall it removed).
    const file = join(directory(), 'store.sqlite');
    const store = await SqliteReferenceStore.open(file);
    cleanups.push(() => store.close());
    // The writer takes the store connection's settings; the store's own is FULL. Its
    // checkpointer is the one the store opened on that connection (here opened as the store
    // opening does, on a handle of the test's own).
    const database = opened(file);
    database.pragma('synchronous = FULL');
    const checkpointer = sqliteCheckpointer(database);
    if (!checkpointer) throw new Error('a file in WAL mode must get a checkpointer');
    cleanups.push(() => checkpointer.close());
    const writer = sqliteInboxWriter(database);
    if (!writer) throw new Error('a file in WAL mode must get a writer thread');
    cleanups.push(() => writer.close());
    expect(await writer.write([inboxInsertFor('SETTINGS', 'SETTINGS')])).toEqual([
      { kind: 'inserted' },
    ]);
    expect(await writer.settings()).toEqual({
      walAutocheckpoint: 4000,
      synchronous: 2,
      busyTimeout: Number(database.pragma('busy_timeout', { simple: true })),
    });
  });
});
