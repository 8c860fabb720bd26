import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { runNode } from '../helpers/run-node.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fundPayouts, payoutBalance, payoutsByMsisdn } from './bulk-files.js';

const child = fileURLToPath(new URL('./payout-batch-child.ts', import.meta.url));

let database: TestDatabase;
let harness: Harness;
beforeAll(async () => {
  database = await createTestDatabase('bulk-pay');
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.close();
  await database?.drop();
});

type ChildResult = {
  stoppedFor: string | null;
  rows: Array<{ status: string; error: string | null }>;
};

describe('two batches in two processes on one PostgreSQL store share one wallet', () => {
  it('never commit more than the wallet holds: no platform refusal, every success debited once', async () => {
    // 2 × 30 rows of 1,000 TZS + 100 TZS charge, and a wallet for 40 of them.
    await fundPayouts(harness, 44_000);
    const run = (batchId: string, offset: number) =>
      runNode(['--import', 'tsx', child, database.url, harness.url, batchId, String(offset)]);
    const runs = await Promise.all([run('shift-a', 0), run('shift-b', 100)]);
    const results = runs.map((done) => {
      expect(done.code, done.stderr).toBe(0);
      return JSON.parse(done.stdout) as ChildResult;
    });
    const rows = results.flatMap((result) => result.rows);
    const succeeded = rows.filter((row) => row.status === 'success').length;
    expect(succeeded).toBeGreaterThanOrEqual(30);
    expect(succeeded).toBeLessThanOrEqual(40);
    // Stopped by the store's reservation, never by the platform's insufficient-funds refusal.
    expect(rows.filter((row) => row.status === 'failed')).toEqual([]);
    expect(rows.every((row) => row.status === 'success' || row.status === 'skipped')).toBe(true);
    expect(results.some((result) => result.stoppedFor === 'insufficient_funds')).toBe(true);
    const paid = await payoutsByMsisdn(harness);
    expect([...paid.values()].reduce((sum, count) => sum + count, 0)).toBe(succeeded);
    expect(await payoutBalance(harness)).toBe(44_000 - succeeded * 1100);
  }, 60_000);
});
