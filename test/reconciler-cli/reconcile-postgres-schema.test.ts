import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReconcile } from '../../src/cli/reconcile/run-reconcile.js';
import { runReviewList } from '../../src/cli/reconcile/run-review.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { captureIo, runCli } from '../reconciler-cli/harness.js';

// `pesakit reconcile --store postgres://…` for an application
// that keeps its store in its own schema, as docs/reference-store.md shows
// (`PostgresReferenceStore.open(url, { schema: 'pesakit' })`). The CLI had no way to name the
// schema: it opened `public`, created an empty store there (migrations run on open), found
// nothing to do and exited 0 "Nothing waits for review" — every run, for ever, while the
// application's records were never reconciled. The very failure the docs guard against for a
// mistyped SQLite path. Now `--schema` (or PESAKIT_STORE_SCHEMA) names it, and a schema without
// a pesakit store is a usage error (exit 2) that creates nothing.

let database: TestDatabase;
let harness: Harness;
const env = {
  PESAKIT_COLLECTION_EMAIL: accounts.collection.email,
  PESAKIT_COLLECTION_PASSWORD: accounts.collection.password,
};

beforeAll(async () => {
  database = await createTestDatabase('reconcile_schema');
  harness = await startHarness();
  const store = await PostgresReferenceStore.open(database.url, { schema: 'shop' });
  const pesakit = harness.client({ store });
  const payment = await pesakit.collection.initiateMno(
    { amount: 1000, msisdn: '255754123456' },
    { merchantReference: 'shop-order-1' },
  );
  await harness.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
  await store.close();
});
afterAll(async () => {
  await harness.close();
  await database.drop();
});

async function tablesIn(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const result = await client.query(
      "SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'pesakit%'",
      [schema],
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

const flags = { once: true, all: true, storeFromArgv: true, environment: 'sandbox' as const };

describe('pesakit reconcile on a PostgreSQL store in its own schema', () => {
  it('without --schema: a usage error naming --schema, and no store created in public', async () => {
    const io = captureIo(env);
    const code = await runReconcile({ ...flags, store: database.url, baseUrl: harness.url }, io);
    expect(code).toBe(2);
    expect(io.err.text).toMatch(/--schema/);
    expect(io.err.text.trim().split('\n')).toHaveLength(1);
    expect(await tablesIn('public')).toBe(0);
  });

  it('review list without --schema: the same usage error', async () => {
    const io = captureIo(env);
    const code = await runReviewList({ store: database.url, storeFromArgv: true }, io);
    expect(code).toBe(2);
    expect(io.err.text).toMatch(/--schema/);
    expect(await tablesIn('public')).toBe(0);
  });

  it('with --schema shop: the application’s records are reconciled', async () => {
    const io = captureIo(env);
    const code = await runReconcile(
      { ...flags, store: database.url, schema: 'shop', baseUrl: harness.url, json: true },
      io,
    );
    expect(code).toBe(0);
    const summary = JSON.parse(io.out.text.trim().split('\n').at(-1) ?? '{}');
    expect(summary).toMatchObject({ event: 'summary', checked: 1, settled: 1 });
  });

  it('review list --schema shop, and PESAKIT_STORE_SCHEMA on the command line', {
    timeout: 30_000,
  }, async () => {
    const io = captureIo(env);
    expect(
      await runReviewList({ store: database.url, schema: 'shop', storeFromArgv: true }, io),
    ).toBe(0);
    const run = await runCli(['review', 'list', '--store', database.url], {
      PESAKIT_STORE_SCHEMA: 'shop',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Nothing waits for review/);
  });
});
