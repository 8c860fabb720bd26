import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReferenceStore } from '../../../src/references/index.js';
import { PostgresReferenceStore } from '../../../src/references/postgres-store.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { type Harness, startHarness } from '../../helpers/sandbox-harness.js';

/**
 * The store's connections: a pool pesakit makes holds `maxConnections` (default 4) whatever the
 * reconciler's `concurrency`, so that N workers need N × 4 of the server's `max_connections`;
 * a merchant's own `pg.Pool` may carry several stores and stays open when they close.
 */
let harness: Harness;
let database: TestDatabase;
beforeAll(async () => {
  harness = await startHarness({ recordLimit: 1_000 });
  database = await createTestDatabase('store_pool');
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await harness?.close();
  await database?.drop();
});

/** `count` pending collections in the sandbox and in `store`, then a clock that finds them due. */
async function dueCollections(store: ReferenceStore, prefix: string, count: number) {
  const pesakit = harness.client({ store });
  for (let i = 0; i < count; i += 1) {
    await pesakit.collection.initiateMno(
      { amount: 1_000 + i, msisdn: '255754123456' },
      { merchantReference: `${prefix}-${String(i).padStart(3, '0')}` },
    );
  }
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
}

/** One reconciler pass on `store` at `concurrency`; its summary. */
async function pass(store: ReferenceStore, concurrency: number) {
  const reconciler = harness.client({ store }).createReconciler({
    concurrency,
    ratePerSecond: 10_000,
  });
  try {
    return await reconciler.runOnce();
  } finally {
    await reconciler.close();
  }
}

/** Server sessions opened under `applicationName`. */
async function sessions(applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      'select count(*) from pg_stat_activity where application_name = $1',
      [applicationName],
    );
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

function urlAs(applicationName: string): string {
  const url = new URL(database.url);
  url.searchParams.set('application_name', applicationName);
  return url.toString();
}

describe('PostgresReferenceStore: the pool it makes', () => {
  it('holds at most 4 connections by default, under a reconciler of concurrency 32', async () => {
    const store = await PostgresReferenceStore.open(urlAs('pool_default'), { schema: 'dflt' });
    try {
      await dueCollections(store, 'dflt', 64);
      const summary = await pass(store, 32);
      expect(summary).toMatchObject({ checked: 64, errors: 0 });
      // Idle connections stay in the pool (10 s): what the pass opened is still there.
      const open = await sessions('pool_default');
      expect(open).toBeGreaterThan(0);
      expect(open).toBeLessThanOrEqual(4);
    } finally {
      await store.close();
    }
  });

  it('maxConnections: 1 serves a whole pass: no check needs a second connection', async () => {
    const store = await PostgresReferenceStore.open(urlAs('pool_one'), {
      schema: 'one',
      maxConnections: 1,
    });
    try {
      await dueCollections(store, 'one', 24);
      expect(await pass(store, 8)).toMatchObject({ checked: 24, errors: 0 });
      expect(await sessions('pool_one')).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe("PostgresReferenceStore: the merchant's own pg.Pool", () => {
  it('carries several stores, keeps its own size, and stays open when they close', async () => {
    const pool = new pg.Pool({ connectionString: urlAs('pool_shared'), max: 2 });
    pool.on('error', () => {});
    try {
      const shops = await Promise.all(
        ['shop_a', 'shop_b'].map((schema) => PostgresReferenceStore.open(pool, { schema })),
      );
      const [a, b] = shops as [PostgresReferenceStore, PostgresReferenceStore];
      await dueCollections(a, 'a', 16);
      vi.useRealTimers();
      await dueCollections(b, 'b', 16);
      const summaries = await Promise.all([pass(a, 8), pass(b, 8)]);
      expect(summaries.map((summary) => summary.checked)).toEqual([16, 16]);
      expect(pool.totalCount).toBeLessThanOrEqual(2);
      await Promise.all([a.close(), b.close()]);
      const { rows } = await pool.query<{ shop_a: string; shop_b: string }>(
        `select (select count(*) from shop_a.pesakit_transactions where check_count = 1) as shop_a,
                (select count(*) from shop_b.pesakit_transactions where check_count = 1) as shop_b`,
      );
      expect(rows).toEqual([{ shop_a: '16', shop_b: '16' }]);
    } finally {
      await pool.end();
    }
  });
});
