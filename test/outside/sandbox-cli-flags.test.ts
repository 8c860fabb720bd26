import { describe, expect, it } from 'vitest';
import { runCli } from '../reconciler-cli/harness.js';

// An outside tester's pass over `npx pesakit sandbox` flags (docs/sandbox.md: "exits 2 for a
// seed file that is missing, not JSON or refused …, 1 for a port already in use"). A mistyped
// flag — `--port abc`, `--port 70000`, an unknown option — exited 1, the code the docs give to a
// busy port, so a script that retries another port on 1 retried a typo. Like every other
// pesakit command's, the sandbox's command-line mistakes now exit 2.

describe('pesakit sandbox: a mistyped flag is a usage error (exit 2)', () => {
  it.each([
    [['--port', 'abc'], /port must be a whole number from 0 to 65535/],
    [['--port', '70000'], /port must be a whole number from 0 to 65535/],
    [['--no-such-flag'], /unknown option/],
  ])('%j', { timeout: 30_000 }, async (flags, message) => {
    const run = await runCli(['sandbox', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toMatch(/listening/);
  });
});
