import { describe, expect, it } from 'vitest';
import { runBenchQuick as runBench } from '../helpers/run-bench.js';

// Performance is measured in bench/, never asserted here: this only proves that the benchmark
// runs end to end against the built package (dist/) and prints its verdict.
describe('airtime bulk benchmark runs (--quick, built package)', () => {
  it('airtime-bulk.mjs prints a ratio against a bare loop of airtime.purchase', async () => {
    const run = await runBench('airtime-bulk.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/verdict: bulkPurchase at \d+\.\d\dx of a bare purchase loop/);
  }, 180_000);
});
