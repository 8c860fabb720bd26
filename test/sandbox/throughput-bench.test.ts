import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

// The benchmark's --quick mode, so that it cannot rot: it runs against the built package
// (dist/), every request of every run must be answered 2xx, and it must print a verdict per
// route. Speed is printed, never asserted here.
describe('bench/sandbox-throughput.mjs --quick', () => {
  it('measures status, initiate and payout against the bare route (and the bare route with the contract headers and answer) and prints a verdict for each', async () => {
    const { stdout } = await run(process.execPath, ['bench/sandbox-throughput.mjs', '--quick'], {
      cwd: root,
    });
    const rows = stdout
      .split('\n')
      .filter((line) =>
        /^(status|initiate|payout)\s{2,}(bare Fastify route|sandbox|bare \+ contract headers and answer)\s/.test(
          line,
        ),
      );
    expect(rows).toHaveLength(9);
    for (const subject of ['status', 'initiate', 'payout']) {
      expect(stdout).toMatch(
        new RegExp(
          `^${subject}: throughput \\d+\\.\\d\\dx of bare Fastify .*CPU per request \\d+\\.\\d\\dx .*→ target ≥ 0\\.85 (met|missed); against the bare route with the contract's headers and answer \\(informational\\): throughput \\d+\\.\\d\\dx, CPU per request \\d+\\.\\d\\dx \\(\\d+ µs\\)$`,
          'm',
        ),
      );
    }
    // A failed request would be named in the verdict; an error path must never be timed.
    expect(stdout).not.toMatch(/failed requests/);
  }, 180_000);
});
