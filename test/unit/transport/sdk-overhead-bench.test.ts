import { fileURLToPath } from 'node:url';
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

describe('sdk-overhead-ab benchmark runs (--quick, built package)', () => {
  it('without an old build, says what to set and exits cleanly', async () => {
    const run = await runBench('sdk-overhead-ab.mjs');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/set BENCH_SDK_DIST_OLD/);
  }, 60_000);

  it('compares two builds (here dist/ against itself) and prints the ratios', async () => {
    const saved = process.env['BENCH_SDK_DIST_OLD'];
    process.env['BENCH_SDK_DIST_OLD'] = fileURLToPath(new URL('../../../dist', import.meta.url));
    try {
      const run = await runBench('sdk-overhead-ab.mjs');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/newSqlite \/ byHand: CPU \d+\.\d\dx, latency \d+\.\d\dx/);
      expect(run.stdout).toMatch(/newMemory \/ oldMemory: CPU \d+\.\d\dx/);
    } finally {
      if (saved === undefined) delete process.env['BENCH_SDK_DIST_OLD'];
      else process.env['BENCH_SDK_DIST_OLD'] = saved;
    }
  }, 120_000);
});
