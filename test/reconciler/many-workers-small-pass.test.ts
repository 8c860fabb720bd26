import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReferenceStore } from '../../src/references/index.js';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';
import { type CountingProxy, clientThrough, startProxy } from './helpers.js';

/**
 * Workers running together share a pass smaller than `batchSize`: a page is one round of
 * checks (`concurrency`), so no worker's page holds records while another has free slots.
 * Four reconcilers, each on its own handle of one store (as four processes would be), run
 * their passes at once over 24 due records — far fewer than a page of `batchSize` 200.
 */
const WORKERS = 4;
const RECORDS = 24;

let harness: Harness;
let proxy: CountingProxy;
let database: TestDatabase;
const sqliteFile = temporarySqliteFiles('small-pass');

beforeAll(async () => {
  harness = await startHarness();
  // Each pull takes 20 ms, as a platform's would take longer: checks overlap across workers.
  proxy = await startProxy(harness.url, {
    delayMs: (request) => (request.path.includes('transaction/status') ? 20 : 0),
  });
  database = await createTestDatabase('small_pass');
});
afterAll(async () => {
  await proxy?.close();
  await harness?.close();
  await database?.drop();
});

const engines: [string, () => Promise<() => Promise<ReferenceStore>>][] = [
  [
    'SQLite',
    async () => {
      const file = sqliteFile();
      return () => SqliteReferenceStore.open(file);
    },
  ],
  ['PostgreSQL', async () => () => PostgresReferenceStore.open(database.url, { schema: 'small' })],
];

describe.each(engines)('%s: a pass smaller than a page', (_, engine) => {
  it('is shared by the workers running it, each record pulled once', async () => {
    const open = await engine();
    const stores = await Promise.all(Array.from({ length: WORKERS }, open));
    try {
      const seeding = clientThrough(proxy, stores[0] as ReferenceStore, { maxRetries: 0 });
      const controlNumbers: string[] = [];
      for (let i = 0; i < RECORDS; i += 1) {
        const { controlNumber } = await seeding.collection.initiateMno(
          { amount: 1_000 + i, msisdn: '255754123456' },
          { merchantReference: `small-${String(i).padStart(2, '0')}` },
        );
        controlNumbers.push(controlNumber);
      }
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 }); // all due
      proxy.requests.length = 0;
      const reconcilers = stores.map((store) =>
        clientThrough(proxy, store, { maxRetries: 0 }).createReconciler({
          concurrency: 2,
          ratePerSecond: 10_000,
        }),
      );
      const summaries = await Promise.all(reconcilers.map((reconciler) => reconciler.runOnce()));
      await Promise.all(reconcilers.map((reconciler) => reconciler.close()));

      const checked = summaries.map((summary) => summary.checked);
      expect(checked.reduce((sum, count) => sum + count, 0)).toBe(RECORDS);
      // Each worker checked a share; with a page of `batchSize` the first took all 24.
      for (const count of checked) expect(count).toBeGreaterThan(0);
      const pulls = proxy.requests
        .filter((request) => request.path.includes('transaction/status'))
        .map((request) => (JSON.parse(request.body) as { ref_id: string }).ref_id);
      expect(pulls.sort()).toEqual([...controlNumbers].sort());
    } finally {
      vi.useRealTimers();
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
