import { once } from 'node:events';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import {
  closeInScript,
  seedOpenRecords,
  temporarySqliteFiles,
} from '../../helpers/sqlite-file-store.js';

// Every thread the store starts, with how it was started: the schedule thread is the one given
// the lease's SQL. A module of this file's own, so the wrapper touches no other test.
const threads = vi.hoisted(() => [] as Array<{ worker: Worker; options: WorkerOptions }>);
vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  class RecordedWorker extends real.Worker {
    constructor(source: string | URL, options: WorkerOptions = {}) {
      super(source, options);
      threads.push({ worker: this, options });
    }
  }
  return { ...real, Worker: RecordedWorker };
});

const scheduleThreads = () =>
  threads.filter(({ options }) => (options.workerData as { sql?: unknown } | undefined)?.sql);

const newFile = temporarySqliteFiles('schedule-thread');

/** Every SQL text the store's own connection prepares from now on. */
function preparedOnMain(): string[] {
  const texts: string[] = [];
  const prepare = Database.prototype.prepare;
  vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (
    this: Database.Database,
    source: string,
  ) {
    texts.push(source);
    return prepare.call(this, source);
  });
  return texts;
}
afterEach(() => {
  vi.restoreAllMocks();
  threads.length = 0;
});

const leaseStatement = /lease_token = lower\(hex\(randomblob/;
const releaseStatement = /where merchant_reference = \? and lease_token = \?/;
const start = Date.parse('2026-03-01T08:00:00.000Z');

async function seeded(file: string, count: number, now: () => Date = () => new Date(start)) {
  const store = await SqliteReferenceStore.open(file, { now });
  await seedOpenRecords(store, count);
  return store;
}

/** The schedule columns of every record, read on a connection of the test's own. */
function schedule(file: string) {
  const reader = new Database(file, { readonly: true });
  try {
    return reader
      .prepare(
        `select merchant_reference as ref, check_count as checks, lease_token as token,
           (select count(*) from pesakit_check_log l where l.merchant_reference = t.merchant_reference) as log
         from pesakit_transactions t order by merchant_reference`,
      )
      .all() as Array<{ ref: string; checks: number; token: string | null; log: number }>;
  } finally {
    reader.close();
  }
}

const observation = { status: 'pending', at: '2026-03-01T08:00:00.000Z' };

describe('SQLite store opened by path: the schedule thread', () => {
  it('leases and releases on the thread: the store connection prepares no lease or release statement', async () => {
    const file = newFile();
    const store = await seeded(file, 5);
    const texts = preparedOnMain();
    const leased = await store.leaseDue({ limit: 10, leaseMs: 60_000 });
    expect(leased.map((l) => l.record.merchantReference)).toEqual([
      'order-000',
      'order-001',
      'order-002',
      'order-003',
      'order-004',
    ]);
    const released = await store.releaseLeases(
      leased.map(({ record, token }) => ({
        merchantReference: record.merchantReference,
        token,
        nextCheckAt: new Date(start + 5_000),
        observation,
      })),
    );
    expect(released).toEqual([true, true, true, true, true]);
    expect(
      texts.filter((text) => leaseStatement.test(text) || releaseStatement.test(text)),
    ).toEqual([]);
    expect(scheduleThreads()).toHaveLength(1);
    expect(schedule(file).map(({ checks, token, log }) => ({ checks, token, log }))).toEqual(
      Array.from({ length: 5 }, () => ({ checks: 1, token: null, log: 1 })),
    );
    await store.close();
  });

  it('a release whose lease was lost writes nothing and reports false', async () => {
    const file = newFile();
    let now = start;
    const store = await seeded(file, 2, () => new Date(now));
    const texts = preparedOnMain();
    const [first] = await store.leaseDue({ limit: 1, leaseMs: 1_000 });
    now += 1_001; // expired: another pass takes the record over
    const [takenOver] = await store.leaseDue({ limit: 1, leaseMs: 60_000, force: true });
    expect(takenOver?.record.merchantReference).toBe(first?.record.merchantReference);
    expect(takenOver?.token).not.toBe(first?.token);
    const released = await store.releaseLeases([
      {
        merchantReference: first!.record.merchantReference,
        token: first!.token,
        nextCheckAt: new Date(now + 5_000),
        observation,
      },
    ]);
    expect(released).toEqual([false]);
    expect(
      texts.filter((text) => leaseStatement.test(text) || releaseStatement.test(text)),
    ).toEqual([]);
    expect(schedule(file)[0]).toEqual({
      ref: 'order-000',
      checks: 0,
      token: takenOver!.token,
      log: 0,
    });
    await store.close();
  });

  it('the thread dying mid-pass: its calls run again on the store connection, each record released once', async () => {
    const file = newFile();
    const store = await seeded(file, 30);
    const page = await store.leaseDue({ limit: 10, leaseMs: 60_000 });
    const [thread] = scheduleThreads();
    expect(thread).toBeDefined();
    const exited = once(thread!.worker, 'exit');
    const texts = preparedOnMain();
    // The release is posted to the thread; the thread is killed before or after it commits.
    const releasing = store.releaseLeases(
      page.map(({ record, token }) => ({
        merchantReference: record.merchantReference,
        token,
        nextCheckAt: new Date(start + 60_000),
        observation,
      })),
    );
    await thread!.worker.terminate();
    await exited;
    const released = await releasing;
    // Whichever it was, the fence holds: written once (true), or found already written (false).
    expect(released).toHaveLength(10);
    // The rest of the pass runs on the store's own connection, page after page.
    let leased = 10;
    for (;;) {
      const next = await store.leaseDue({ limit: 10, leaseMs: 60_000 });
      if (next.length === 0) break;
      leased += next.length;
      expect(
        await store.releaseLeases(
          next.map(({ record, token }) => ({
            merchantReference: record.merchantReference,
            token,
            nextCheckAt: new Date(start + 60_000),
            observation,
          })),
        ),
      ).toEqual(next.map(() => true));
    }
    expect(leased).toBe(30);
    expect(texts.some((text) => leaseStatement.test(text))).toBe(true);
    expect(scheduleThreads()).toHaveLength(1); // not started again
    expect(schedule(file).map(({ checks, token, log }) => ({ checks, token, log }))).toEqual(
      Array.from({ length: 30 }, () => ({ checks: 1, token: null, log: 1 })),
    );
    await store.close();
  });

  it('close() waits for the calls in flight, then ends the thread', async () => {
    const file = newFile();
    const store = await seeded(file, 3);
    const page = await store.leaseDue({ limit: 10, leaseMs: 60_000 });
    const [thread] = scheduleThreads();
    let exited = false;
    thread!.worker.once('exit', () => {
      exited = true;
    });
    const releasing = store.releaseLeases(
      page.map(({ record, token }) => ({
        merchantReference: record.merchantReference,
        token,
        nextCheckAt: new Date(start + 60_000),
      })),
    );
    await store.close();
    expect(await releasing).toEqual([true, true, true]);
    expect(exited).toBe(true);
    expect(schedule(file).map(({ checks }) => checks)).toEqual([1, 1, 1]);
  });

  it('a store transaction beside the thread: begun IMMEDIATE, another commit cannot make its snapshot stale', async () => {
    const file = newFile();
    await (await seeded(file, 1)).close();
    // Reopened: a fresh connection prepares the transition's statements anew (seen below).
    const store = await SqliteReferenceStore.open(file);
    // Another connection (as the thread is) commits between the transition's read and write.
    const other = new Database(file);
    other.pragma('busy_timeout = 0');
    let interleaved: string | undefined;
    const prepare = Database.prototype.prepare;
    vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (
      this: Database.Database,
      source: string,
    ) {
      if (
        this !== other &&
        interleaved === undefined &&
        /^update "pesakit_transactions"/.test(source)
      ) {
        try {
          other
            .prepare(
              'insert into pesakit_check_log (merchant_reference, seq, observation) values (?, 1, ?)',
            )
            .run('order-000', '{}');
          interleaved = 'committed';
        } catch (error) {
          interleaved = (error as { code?: string }).code ?? String(error);
        }
      }
      return prepare.call(this, source);
    });
    const { record, changed } = await store.transition('order-000', 'success');
    expect({ status: record.status, changed }).toEqual({ status: 'success', changed: true });
    // The other connection had to wait for the write lock (here: busy at once, timeout 0).
    expect(interleaved).toBe('SQLITE_BUSY');
    other.close();
    await store.close();
  });
});

describe('closing a store whose schedule thread ran', () => {
  it('lets a script end normally: exit code 0 after the last await store.close()', async () => {
    expect(await closeInScript('schedule', newFile())).toEqual({
      code: 0,
      stdout: 'CLOSED leased=2 released=2',
    });
  }, 30_000);
});
