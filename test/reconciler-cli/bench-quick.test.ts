import { describe, expect, it } from 'vitest';
import { runBenchQuick as runBench } from '../helpers/run-bench.js';

// Performance is measured in bench/, never asserted here: these only prove that the
// benchmarks run end to end against the built package (dist/) and print their verdict.
describe('reconciler benchmarks run (--quick, built package)', () => {
  it('reconciler-throughput.mjs prints a ratio against raw status calls', async () => {
    const run = await runBench('reconciler-throughput.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/verdict: reconciler at \d+\.\d\dx of raw status calls/);
  }, 120_000);

  it('reconciler-memory.mjs prints the peak RSS of the reconciler process', async () => {
    const run = await runBench('reconciler-memory.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/verdict: peak RSS \d+ MB over 500 due records/);
  }, 120_000);
});
