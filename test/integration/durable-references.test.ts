import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../src/postgres.js';
import type { ReferenceStore } from '../../src/references/index.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// A merchant finds any transaction by any of its references after a process restart (SQLite)
// or from another process (PostgreSQL). The payments are made by a
// separate Node process that exits before the lookups.

const run = promisify(execFile);
const script = fileURLToPath(new URL('./fixtures/pay-then-exit.ts', import.meta.url));

let harness: Harness;
let database: TestDatabase;
let directory: string;
beforeAll(async () => {
  harness = await startHarness();
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: accounts.disbursement.email,
    amount: 50_000,
  });
  database = await createTestDatabase('durable_references');
  directory = mkdtempSync(join(tmpdir(), 'pesakit-durable-'));
});
afterAll(async () => {
  await harness.close();
  await database.drop();
  rmSync(directory, { recursive: true, force: true });
});

async function payInAnotherProcess(kind: 'sqlite' | 'postgres', location: string) {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', script, harness.url, kind, location, JSON.stringify(accounts)],
    { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    collection: string[];
    payout: string[];
  };
}

async function expectFoundByEveryReference(
  store: ReferenceStore,
  references: { collection: string[]; payout: string[] },
) {
  for (const [group, status] of [
    [references.collection, 'pending'],
    [references.payout, 'success'],
  ] as const) {
    const [merchantReference, ...platform] = group;
    expect(platform.every(Boolean)).toBe(true);
    for (const reference of group) {
      const record = await store.records.find({ value: reference });
      expect(record?.merchantReference, reference).toBe(merchantReference);
      expect(record?.status).toBe(status);
    }
  }
}

describe('references survive the process that made them', () => {
  it('SQLite: reopened after the paying process exited, every reference finds its payment', async () => {
    const file = join(directory, 'payments.sqlite');
    const references = await payInAnotherProcess('sqlite', file);
    const store = await SqliteReferenceStore.open(file);
    try {
      await expectFoundByEveryReference(store, references);
    } finally {
      await store.close();
    }
  });

  it('PostgreSQL: another process finds every reference of payments it did not make', async () => {
    const references = await payInAnotherProcess('postgres', database.url);
    const store = await PostgresReferenceStore.open(database.url);
    try {
      await expectFoundByEveryReference(store, references);
    } finally {
      await store.close();
    }
  });
});
