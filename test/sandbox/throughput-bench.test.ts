import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

// The benchmark's --quick mode (one short round against the built package in dist/), so that the
// script cannot rot. Speed is measured there and printed, never asserted here.
describe('bench/sandbox-throughput.mjs --quick', () => {
  it('runs, answers every request 2xx, and prints a figure for status, initiate and payout', async () => {
    const { stdout } = await run(process.execPath, ['bench/sandbox-throughput.mjs', '--quick'], {
      cwd: root,
    });
    for (const subject of ['status', 'initiate', 'payout']) {
      expect(stdout).toMatch(new RegExp(`^${subject}\\b.*\\d+\\.\\d+x`, 'm'));
    }
    expect(stdout).not.toMatch(/failed requests/);
  }, 180_000);
});
