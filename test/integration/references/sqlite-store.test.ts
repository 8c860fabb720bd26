import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  type ConfigurationError,
  isConfigurationError,
} from '../../../src/errors/configuration-error.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { failure } from '../../helpers/failure.js';
import { moves } from '../../helpers/moves.js';
import { describeStoreConformance } from '../../helpers/verify-store-cases.js';

const dir = mkdtempSync(join(tmpdir(), 'pesakit-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
let lastFile = '';

// Each case's database is a new file; another handle opens the same file.
describeStoreConformance('SQLite file', {
  open: async ({ fresh, now }) => {
    if (fresh) {
      files += 1;
      lastFile = join(dir, `store-${files}.sqlite`);
    }
    return SqliteReferenceStore.open(lastFile, { now });
  },
});

let inMemory: SqliteReferenceStore | undefined;

// A `:memory:` database lives in its connection: a second handle is the same store.
describeStoreConformance(
  'SQLite :memory:',
  {
    persistent: false,
    open: async ({ fresh, now }) => {
      if (fresh || inMemory === undefined) {
        inMemory = await SqliteReferenceStore.open(':memory:', { now });
      }
      return inMemory;
    },
  },
  [
    'records outlive the store that wrote them › another handle, after a restart, finds the transaction by any of its references',
  ],
);

describe('SQLite store files', () => {
  it('a path in a folder that does not exist is a ConfigurationError naming the path', async () => {
    const file = join(dir, 'no-such-folder', 'payments.sqlite');
    const error = await failure(SqliteReferenceStore.open(file));
    expect(isConfigurationError(error)).toBe(true);
    expect((error as ConfigurationError).code).toBe('configuration_error');
    expect((error as ConfigurationError).message).toContain(file);
    expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);
  });

  it('applies its migrations once: reopening a file keeps the schema and the data', async () => {
    const file = join(dir, 'migrations.sqlite');
    const first = await SqliteReferenceStore.open(file);
    await first.records.create({
      merchantReference: 'm-1',
      product: 'airtime',
      flow: 'airtime_purchase',
      amount: 1000,
    });
    await first.close();
    const second = await SqliteReferenceStore.open(file);
    expect((await second.records.get('m-1'))?.amount).toBe(1000);
    await second.close();
    const raw = new Database(file, { readonly: true });
    const applied = raw.prepare('select name from pesakit_migration order by name').all();
    const columns = raw.prepare("select name from pragma_table_info('pesakit_transactions')").all();
    raw.close();
    expect(applied.map((row) => (row as { name: string }).name)).toEqual(['0001_initial_schema']);
    expect(columns).toContainEqual({ name: 'amount_cents' });
  });

  it('fsyncs every commit (synchronous = FULL) on the run that creates the file and on a reopen', async () => {
    // better-sqlite3's build opens a file already in WAL mode at synchronous = NORMAL: without
    // the store's own pragma a reopened store would lose its last commits to a power cut.
    const file = join(dir, 'durability.sqlite');
    const original = Database.prototype.pragma;
    const connections: Database.Database[] = [];
    const spy = vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (
      this: Database.Database,
      ...args: Parameters<Database.Database['pragma']>
    ) {
      if (!connections.includes(this)) connections.push(this);
      return original.apply(this, args);
    });
    try {
      for (const run of ['create', 'reopen']) {
        const store = await SqliteReferenceStore.open(file);
        const connection = connections.at(-1) as Database.Database;
        const setting = (name: string) => original.call(connection, name, { simple: true });
        expect({ run, synchronous: setting('synchronous'), mode: setting('journal_mode') }).toEqual(
          { run, synchronous: 2, mode: 'wal' },
        );
        await store.close();
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('makes a Database it is given durable: WAL, synchronous = FULL, busy_timeout', async () => {
    const database = new Database(join(dir, 'given.sqlite'));
    // As a merchant might leave it: no WAL, commits not fsynced, no busy wait.
    database.pragma('synchronous = OFF');
    database.pragma('busy_timeout = 0');
    const store = await SqliteReferenceStore.open(database, { busyTimeoutMs: 1234 });
    await store.close();
    expect({
      mode: database.pragma('journal_mode', { simple: true }),
      synchronous: database.pragma('synchronous', { simple: true }),
      busyTimeout: database.pragma('busy_timeout', { simple: true }),
    }).toEqual({ mode: 'wal', synchronous: 2, busyTimeout: 1234 });
    database.close();
  });

  it('refuses a file made by a pre-release build, naming the file, and leaves it as it was', async () => {
    const file = join(dir, 'pre-release.sqlite');
    // A file as a build before 0.1.0 left it: its migrations recorded in kysely's table.
    const old = new Database(file);
    old.exec(`create table pesakit_migration (name varchar(255) not null primary key, timestamp varchar(255) not null);
      insert into pesakit_migration values ('0001_pesakit_transactions', '2026-01-01T00:00:00.000Z'),
        ('0002_review_and_effects', '2026-01-01T00:00:00.000Z');
      create table pesakit_transactions (merchant_reference text primary key);`);
    old.close();
    const error = await failure(SqliteReferenceStore.open(file));
    expect(isConfigurationError(error)).toBe(true);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/pre-release build of pesakit \(before 0\.1\.0\)/);
    expect((error as Error).message).toMatch(/delete the file/);
    const raw = new Database(file, { readonly: true });
    const applied = raw.prepare('select name from pesakit_migration order by name').all();
    raw.close();
    expect(applied).toEqual([
      { name: '0001_pesakit_transactions' },
      { name: '0002_review_and_effects' },
    ]);
  });

  it("refuses a file whose schema fingerprint is another build's, naming the file, and leaves it", async () => {
    const file = join(dir, 'other-build.sqlite');
    const made = await SqliteReferenceStore.open(file);
    await made.close();
    const raw = new Database(file);
    const own = raw.prepare('select fingerprint from pesakit_schema').get() as {
      fingerprint: string;
    };
    expect(own.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    // A build whose 0001 differs (a column, an index) wrote its own digest.
    raw.prepare('update pesakit_schema set fingerprint = ?').run('0123456789abcdef');
    raw.close();
    const error = await failure(SqliteReferenceStore.open(file));
    expect(isConfigurationError(error)).toBe(true);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(
      `another build of pesakit, whose schema differs (fingerprint 0123456789abcdef, this build's ${own.fingerprint})`,
    );
    expect((error as Error).message).toMatch(/delete the file/);
    // Reopened after the refusal: nothing was migrated or rewritten.
    const after = new Database(file, { readonly: true });
    expect(after.prepare('select fingerprint from pesakit_schema').all()).toEqual([
      { fingerprint: '0123456789abcdef' },
    ]);
    after.close();
  });

  it('refuses a bad or unknown option before the file is touched, naming it', async () => {
    const file = join(dir, 'never-made.sqlite');
    for (const [options, option] of [
      [{ busyTimeoutMs: -1 }, 'busyTimeoutMs'],
      [{ busyTimeoutMs: 1.5 }, 'busyTimeoutMs'],
      [{ inbox: { gatherMs: 1 } }, 'inbox'],
      [{ now: 'today' }, 'now'],
    ] as const) {
      const error = await failure(SqliteReferenceStore.open(file, options as never));
      expect(isConfigurationError(error)).toBe(true);
      expect((error as ConfigurationError).option).toBe(option);
      expect((error as Error).message).toContain(option);
    }
    expect(existsSync(file)).toBe(false);
  });

  it('keeps instants as ISO-8601 text and amounts as whole cents', async () => {
    const file = join(dir, 'encoding.sqlite');
    const store = await SqliteReferenceStore.open(file, {
      now: () => new Date('2025-03-01T08:00:00.000Z'),
    });
    await store.records.create({
      merchantReference: 'm-1',
      product: 'collection',
      flow: 'bank',
      amount: 0.3,
    });
    await store.close();
    const raw = new Database(file, { readonly: true });
    const row = raw.prepare('select amount_cents, created_at from pesakit_transactions').get();
    raw.close();
    expect(row).toEqual({ amount_cents: 30, created_at: '2025-03-01T08:00:00.000Z' });
  });

  it('leaves a Database it was given open when closed', async () => {
    const database = new Database(':memory:');
    const store = await SqliteReferenceStore.open(database);
    await store.close();
    expect(database.open).toBe(true);
    expect(database.prepare('select count(*) as n from pesakit_transactions').get()).toEqual({
      n: 0,
    });
    database.close();
  });

  it('refuses to be used after close, with a clear error', async () => {
    const store = await SqliteReferenceStore.open(':memory:');
    await store.close();
    await expect(store.records.get('x')).rejects.toThrow(/closed/);
  });

  it('the engine itself refuses a second owner of a reference (unique constraint)', async () => {
    const database = new Database(':memory:');
    const store = await SqliteReferenceStore.open(database);
    await store.records.create({
      merchantReference: 'm-1',
      product: 'collection',
      flow: 'mno',
      amount: 10,
    });
    await store.records.create({
      merchantReference: 'm-2',
      product: 'collection',
      flow: 'mno',
      amount: 10,
    });
    await moves(store).attachReferences('m-1', { controlNumber: 'CN-1' });
    expect(() =>
      database
        .prepare(
          "update pesakit_transactions set control_number = 'CN-1' where merchant_reference = 'm-2'",
        )
        .run(),
    ).toThrow(/UNIQUE constraint failed: pesakit_transactions.control_number/);
    await store.close();
    database.close();
  });
});
