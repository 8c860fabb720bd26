import { describe, expect, it } from 'vitest';
import { runBenchQuick as runBench } from '../../helpers/run-bench.js';

// Performance is measured in bench/, never asserted here: this only proves that the benchmark
// runs end to end against the built package (dist/) and prints its verdicts, whatever they say.
describe('sdk-overhead benchmark runs (--quick, built package)', () => {
  it('prints a verdict against raw fetch for the read and for the money call', async () => {
    const run = await runBench('sdk-overhead.mjs');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /verdict: read: collection\.status at \d+\.\d\dx raw fetch per call \(target <= 1\.25x/,
    );
    expect(run.stdout).toMatch(
      /verdict: money: initiateMno, SQLite store at \d+\.\d\dx raw fetch per call/,
    );
  }, 120_000);
});
