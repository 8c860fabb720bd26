import { describe, expect, it } from 'vitest';
import { runCli } from '../reconciler-cli/harness.js';

// `pesakit sandbox --chaos <seed> [--chaos-rate] [--chaos-faults]` (docs/chaos.md).

describe('pesakit sandbox --chaos', () => {
  it('starts in chaos mode: a request draws the named fault, labelled injected', {
    timeout: 60_000,
  }, async () => {
    let answered: { status: number; header: string | null; chaos: unknown } | undefined;
    const run = await runCli(
      [
        'sandbox',
        '--port',
        '0',
        '--chaos',
        '42',
        '--chaos-rate',
        '1',
        '--chaos-faults',
        'error_before',
        '--log-limit',
        '500',
        '--record-limit',
        '50',
      ],
      {},
      {
        onStdoutLine: (line, child) => {
          const url = /listening on (http:\S+)/.exec(line)?.[1];
          if (!url) return;
          void (async () => {
            try {
              const response = await fetch(`${url}/api/sandbox/disbursement/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: '{}',
              });
              const chaos = await (await fetch(`${url}/api/sandbox/_control/chaos`)).json();
              answered = {
                status: response.status,
                header: response.headers.get('x-pesakit-injected-fault'),
                chaos,
              };
            } finally {
              child.kill('SIGTERM');
            }
          })();
        },
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^pesakit sandbox: chaos mode, seed 42, rate 1, faults error_before$/m,
    );
    expect(answered).toMatchObject({
      status: 503,
      header: 'error_before',
      chaos: {
        chaos: { enabled: true, seed: 42, rate: 1, faults: ['error_before'], paused: false },
        timeline: [
          { fault: 'error_before', attempt: 1, target: 'POST /api/sandbox/disbursement/login' },
        ],
      },
    });
  });

  it.each([
    [
      ['--chaos', '1', '--chaos-rate', '2'],
      /chaos\.rate: The chaos\.rate may not be greater than 1\./,
    ],
    [
      ['--chaos', '1', '--chaos-faults', 'meteor'],
      /chaos\.faults\.0: Each of chaos\.faults must be one of/,
    ],
    [['--chaos-rate', '0.5'], /--chaos-rate needs --chaos <seed>\./],
    [
      ['--chaos', '1', '--chaos-late-ms', 'soon'],
      /chaos\.lateMs: The chaos\.lateMs must be a number\./,
    ],
    [['--log-limit', '0'], /--log-limit must be a whole number from 1 to 10000000/],
  ])('refuses %j: exit 2, one line naming it', { timeout: 30_000 }, async (flags, message) => {
    const run = await runCli(['sandbox', '--port', '0', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toMatch(/listening/);
  });
});
