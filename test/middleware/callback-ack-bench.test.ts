import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

// The benchmark's --quick mode, so that it cannot rot: it must run against the built package,
// get every request acknowledged, and print a verdict. Speed is printed, never asserted here.
describe('bench/callback-ack.mjs --quick', () => {
  it('runs both frameworks against the built package and prints a verdict for each', async () => {
    const { stdout } = await run(process.execPath, ['bench/callback-ack.mjs', '--quick'], {
      cwd: root,
      env: { ...process.env, BENCH_ACK_CONNECTIONS: '32' },
    });
    // Two tables (closed loop, then fixed rate), two subjects per framework in each.
    const rows = stdout.split('\n').filter((line) => /^(express|fastify)\s{2}/.test(line));
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      const cells = row.trim().split(/\s{2,}/);
      expect(cells.at(-2)).toBe('0'); // no failures
      // The server's CPU time per request, then its user and system parts.
      expect(cells.at(-1)).toMatch(/^\d+ µs \(\d+ \+ \d+\)$/);
    }
    expect(stdout).toMatch(/^express: ratio \d+\.\d\d .* → target (met|missed); at 200 req/m);
    expect(stdout).toMatch(/^fastify: ratio \d+\.\d\d .* → target (met|missed); at 200 req/m);
  }, 120_000);
});
