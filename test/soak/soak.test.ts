import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The soak in CI: a short run on each store with fixed seeds, against the built package (npm
// test builds dist/ before vitest). A seed that ever failed is added here and stays.
const runs = [
  { store: 'sqlite', seed: 3, payments: 300 },
  { store: 'postgres', seed: 1, payments: 300 },
] as const;

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Both runs together: the soak's share of `npm test`. */
const budgetMs = 240_000;
let spentMs = 0;

interface SoakOutcome {
  code: number | null;
  output: string;
  summary: {
    ok: boolean;
    violations: number;
    sandboxFaults: Record<string, number>;
    processFaults: Record<string, number>;
    forgeries: Record<string, number>;
    calls: Record<string, number>;
  };
}

// A run still going when its test ends (a timeout) is stopped: it stops its own processes.
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGTERM');
});

function soak(args: string[]): Promise<SoakOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'soak/run.ts', ...args], {
      cwd: root,
      env: { ...process.env, TSX_TSCONFIG_PATH: 'soak/tsconfig.json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      running.delete(child);
      const line = output.split('\n').find((text) => text.startsWith('SOAK {'));
      resolve({ code, output, summary: line ? JSON.parse(line.slice(5)) : null });
    });
  });
}

const sum = (counts: Record<string, number>) =>
  Object.values(counts).reduce((total, n) => total + n, 0);

describe('the seeded soak', () => {
  for (const { store, seed, payments } of runs) {
    it(
      `holds every guarantee on ${store}, seed ${seed}, ${payments} payments`,
      async () => {
        const started = Date.now();
        const { code, output, summary } = await soak([
          '--seed',
          String(seed),
          '--payments',
          String(payments),
          '--store',
          store,
        ]);
        expect(summary, output).not.toBeNull();
        expect(summary.violations, output).toBe(0);
        expect(code, output).toBe(0);
        // A run that faulted nothing proves nothing.
        expect(sum(summary.sandboxFaults)).toBeGreaterThan(10);
        expect(summary.calls['ambiguous'] ?? 0).toBeGreaterThan(0);
        expect(
          summary.processFaults['kill_merchant']! + summary.processFaults['kill_reconciler']!,
        ).toBeGreaterThan(0);
        expect(sum(summary.forgeries)).toBeGreaterThan(0);
        if (store === 'postgres')
          expect(summary.processFaults['restart_database']).toBeGreaterThan(0);
        spentMs += Date.now() - started;
        expect(spentMs, 'the CI soaks together stay under 4 minutes').toBeLessThanOrEqual(budgetMs);
      },
      budgetMs,
    );
  }

  it('refuses a run without a seed, naming the flag', async () => {
    const { code, output } = await soak(['--payments', '300']);
    expect(code).toBe(2);
    expect(output).toContain('--seed <n> is required');
  }, 60_000);
});
