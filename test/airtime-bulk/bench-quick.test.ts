import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runtimeEnv } from '../reconciler-cli/harness.js';

const root = new URL('../../', import.meta.url);

function runBench(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [`bench/${file}`, '--quick'], {
    cwd: root,
    env: runtimeEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

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
