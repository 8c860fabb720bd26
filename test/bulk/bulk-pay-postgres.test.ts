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
  it('never commit more than the wallet holds; reruns use the rest, and no row is paid twice', async () => {
    // 2 × 30 rows of 1,000 TZS + 100 TZS charge, and a wallet for exactly 40 of them.
    await fundPayouts(harness, 44_000);
    const run = async (batchId: string, offset: number) => {
      const done = await runNode([
        '--import',
        'tsx',
        child,
        database.url,
        harness.url,
        batchId,
        String(offset),
      ]);
      expect(done.code, done.stderr).toBe(0);
      return JSON.parse(done.stdout) as ChildResult;
    };
    const together = await Promise.all([run('shift-a', 0), run('shift-b', 100)]);
    const succeeded = (results: ChildResult[]) =>
      results.flatMap((result) => result.rows).filter((row) => row.status === 'success').length;
    // At once, each process may stop early (a debit recorded while the other read the balance
    // counts twice: conservative), never late: nothing the platform had to refuse.
    const first = succeeded(together);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(40);
    for (const rows of together.map((result) => result.rows)) {
      expect(rows.every((row) => row.status === 'success' || row.status === 'skipped')).toBe(true);
    }
    expect(together.some((result) => result.stoppedFor === 'insufficient_funds')).toBe(true);
    // Reruns of the same batches, one after the other, send what is left until the wallet is
    // exactly used up: every row once at most, no platform refusal.
    const reruns = [await run('shift-a', 0), await run('shift-b', 100)];
    const total = reruns.flatMap((result) => result.rows);
    expect(total.filter((row) => row.status === 'failed')).toEqual([]);
    expect(succeeded(reruns)).toBe(40);
    const paid = await payoutsByMsisdn(harness);
    expect([...paid.values()].every((count) => count === 1)).toBe(true);
    expect([...paid.values()].reduce((sum, count) => sum + count, 0)).toBe(40);
    expect(await payoutBalance(harness)).toBe(0);
  }, 90_000);
});
