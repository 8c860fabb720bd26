import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
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
    expect(applied).toEqual([
      { name: '0001_pesakit_transactions' },
      { name: '0004_reconciler_schedule' },
    ]);
    expect(columns).toContainEqual({ name: 'amount_cents' });
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
