import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

// The in-process benchmark's --quick mode, so that it cannot rot: it must run against the built
// package, get every callback acknowledged (it throws otherwise) and print one row per case.
// Speed is printed, never asserted here.
describe('bench/callback-ack-append.mjs --quick', () => {
  it('prints CPU and bytes written per callback for each group size and reference order', async () => {
    const { stdout } = await run(process.execPath, ['bench/callback-ack-append.mjs', '--quick'], {
      cwd: root,
    });
    const rows = stdout.split('\n').filter((line) => /^(random|sequential)\s{2}/.test(line));
    expect(
      rows.map((row) =>
        row
          .trim()
          .split(/\s{2,}/)
          .slice(0, 2),
      ),
    ).toEqual([
      ['random', '4'],
      ['sequential', '4'],
      ['random', '16'],
      ['sequential', '16'],
    ]);
    for (const row of rows) {
      expect(row.trim().split(/\s{2,}/)[2]).toMatch(/^\d+ µs \(\d+ \+ \d+\)$/);
    }
  }, 120_000);
});
