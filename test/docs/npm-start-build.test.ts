import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `npm start` (README's first command) runs `npm run build:cli`, which builds only the CLI
// bundle the demo runs, quietly — not every entry twice with type declarations. This test
// runs that script's command (into a temporary directory, so that dist/ — which other tests
// read — is left alone) and checks what it builds and prints. test/integration/demo.test.ts
// checks the demo itself.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const scripts: Record<string, string> = JSON.parse(
  readFileSync(join(root, 'package.json'), 'utf8'),
).scripts;
const out = mkdtempSync(join(tmpdir(), 'pesakit-build-cli-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function files(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' }).sort();
}

describe('npm start', () => {
  it('builds the CLI with build:cli, then runs the demo from it', () => {
    expect(scripts['start']).toBe('npm run build:cli --silent && node dist/cli/index.js demo');
    expect(scripts['sandbox']).toBe('npm run build:cli --silent && node dist/cli/index.js sandbox');
    expect(scripts['build']).toBe('tsup');
  });

  it('build:cli builds only the CLI bundle — no declarations, no library — prints nothing, and its demo ends with the dashboard command', async () => {
    const command = scripts['build:cli'] ?? '';
    expect(command).toMatch(/^tsup /);
    const { stdout, stderr } = await run(
      'bash',
      ['-euo', 'pipefail', '-c', `${command} --out-dir '${out}'`],
      {
        cwd: root,
        env: {
          ...process.env,
          PATH: `${join(root, 'node_modules', '.bin')}:${process.env['PATH']}`,
        },
        timeout: 60_000,
      },
    );
    expect(stdout).toBe('');
    expect(stderr).toBe('');

    const built = files(out);
    expect(built).toContain(join('cli', 'index.js'));
    expect(readFileSync(join(out, 'cli', 'index.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(built.filter((file) => /\.d\.c?ts$/.test(file))).toEqual([]);
    expect(built.filter((file) => /^(index|sqlite|postgres)\.c?js$/.test(file))).toEqual([]);
    expect(built.filter((file) => file.startsWith('sandbox'))).toEqual([]);

    // The demo it runs ends with the command that shows its records on the operations page
    // (run as a package: the project's package.json and a link to its node_modules beside it).
    copyFileSync(join(root, 'package.json'), join(out, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
    const store = join(out, 'demo.sqlite');
    const demo = await run(
      process.execPath,
      [join(out, 'cli', 'index.js'), 'demo', '--store', store],
      {
        cwd: root,
        timeout: 60_000,
      },
    );
    expect(demo.stdout.trimEnd().split('\n').at(-1)).toBe(
      `dashboard see them on the operations page: npx pesakit dashboard --store ${store}`,
    );
  }, 60_000);
});
