import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isDuplicateReferenceError } from '../../../src/errors/duplicate-reference-error.js';
import { storeMigrations, storeMigrator } from '../../../src/references/sql/migrations.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { failure } from '../../helpers/failure.js';
import { describeReferenceStore } from '../../helpers/reference-store-conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'pesakit-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
let lastFile = '';

describeReferenceStore('SQLite file', {
  open: async ({ now }) => {
    files += 1;
    lastFile = join(dir, `store-${files}.sqlite`);
    return SqliteReferenceStore.open(lastFile, { now });
  },
  reopen: async ({ now }) => SqliteReferenceStore.open(lastFile, { now }),
});

describeReferenceStore('SQLite :memory:', {
  open: async ({ now }) => SqliteReferenceStore.open(':memory:', { now }),
});

describe('SQLite store files', () => {
  it('applies its migrations once: reopening a file keeps the schema and the data', async () => {
    const file = join(dir, 'migrations.sqlite');
    const first = await SqliteReferenceStore.open(file);
    await first.createIntent({
      merchantReference: 'm-1',
      product: 'airtime',
      flow: 'airtime_purchase',
      amount: 1000,
    });
    await first.close();
    const second = await SqliteReferenceStore.open(file);
    expect((await second.get('m-1'))?.amount).toBe(1000);
    await second.close();
    const raw = new Database(file, { readonly: true });
    const applied = raw.prepare('select name from pesakit_migration order by name').all();
    const columns = raw.prepare("select name from pragma_table_info('pesakit_transactions')").all();
    raw.close();
    expect(applied.map((row) => (row as { name: string }).name)).toEqual(
      Object.keys(storeMigrations('sqlite')),
    );
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

  it('upgrades a version-1 file on open: records kept, needs_review and effects available', async () => {
    const file = join(dir, 'upgrade.sqlite');
    // A file as pesakit 0.1.0 left it: only the first migration applied, one paid record.
    const old = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new Database(file) }),
    });
    const migrator = storeMigrator(old, 'sqlite');
    expect((await migrator.migrateTo('0001_pesakit_transactions')).error).toBeUndefined();
    await sql`insert into pesakit_transactions
      (merchant_reference, product, flow, amount_cents, status, control_number, created_at, updated_at, check_count, metadata)
      values ('old-1', 'collection', 'mno', 1500050, 'pending', 'CN-OLD', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 0, '{}')`.execute(
      old,
    );
    const v1Check = await failure(
      sql`update pesakit_transactions set status = 'needs_review'`.execute(old),
    );
    expect(String(v1Check)).toMatch(/CHECK constraint failed/);
    await old.destroy();

    const store = await SqliteReferenceStore.open(file);
    const record = await store.findByReference('CN-OLD');
    expect(record).toMatchObject({
      merchantReference: 'old-1',
      amount: 15000.5,
      status: 'pending',
      review: null,
      effect: { status: 'none', attempts: 0 },
    });
    const { record: flagged } = await store.transition('old-1', 'needs_review', {
      review: { reason: 'amount_mismatch', message: 'paid 150 of 15000.50' },
    });
    expect(flagged.status).toBe('needs_review');
    expect(flagged.effect.status).toBe('due');
    expect(
      isDuplicateReferenceError(
        await failure(
          store.createIntent({
            merchantReference: 'old-1',
            product: 'collection',
            flow: 'mno',
            amount: 1,
          }),
        ),
      ),
    ).toBe(true);
    await store.close();
  });

  it('keeps instants as ISO-8601 text and amounts as whole cents', async () => {
    const file = join(dir, 'encoding.sqlite');
    const store = await SqliteReferenceStore.open(file, {
      now: () => new Date('2025-03-01T08:00:00.000Z'),
    });
    await store.createIntent({
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
    await expect(store.get('x')).rejects.toThrow(/closed/);
  });

  it('the engine itself refuses a second owner of a reference (unique constraint)', async () => {
    const database = new Database(':memory:');
    const store = await SqliteReferenceStore.open(database);
    await store.createIntent({
      merchantReference: 'm-1',
      product: 'collection',
      flow: 'mno',
      amount: 10,
    });
    await store.createIntent({
      merchantReference: 'm-2',
      product: 'collection',
      flow: 'mno',
      amount: 10,
    });
    await store.attachReferences('m-1', { controlNumber: 'CN-1' });
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
