import { describe, expect, it } from 'vitest';
import { runCli } from '../reconciler-cli/harness.js';

// docs/sandbox.md: "exits 2 for a seed file that is missing, not JSON or refused …, 1 for a
// port already in use". A mistyped flag is a usage error like every pesakit command's (2), so a
// script that retries another port on 1 never retries a typo.

describe('pesakit sandbox: a mistyped flag is a usage error (exit 2)', () => {
  it.each([
    [['--port', 'abc'], /port must be a whole number from 0 to 65535/],
    [['--port', '70000'], /port must be a whole number from 0 to 65535/],
    [['--no-such-flag'], /unknown option/],
    [['--allowed-host', 'sandbox:4010'], /allowedHosts\.0: each allowed host must be a host name/],
  ])('%j', { timeout: 30_000 }, async (flags, message) => {
    const run = await runCli(['sandbox', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toMatch(/listening/);
  });
});
