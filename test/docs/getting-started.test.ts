import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 4, done when: docs/ has a getting-started guide that runs as written against
// `npx pesakit sandbox`. This test runs every code block of the guide, in order, verbatim —
// except blocks preceded by an HTML comment, which say what the test does instead — against
// the built CLI's sandbox. The only change is the sandbox's address (a free port, not 4010).

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const guide = readFileSync(join(root, 'docs', 'getting-started.md'), 'utf8');
const workdir = join(root, '.tmp', `getting-started-${process.pid}`);

interface Block {
  lang: string;
  code: string;
  skipped: boolean;
}

function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  const pattern = /(<!--[\s\S]*?-->\n)?```(\w*)\n([\s\S]*?)```/g;
  for (const match of markdown.matchAll(pattern)) {
    found.push({ skipped: match[1] !== undefined, lang: match[2] ?? '', code: match[3] ?? '' });
  }
  return found;
}

let sandbox: ReturnType<typeof spawn>;
let url: string;
beforeAll(async () => {
  mkdirSync(workdir, { recursive: true });
  sandbox = spawn(
    process.execPath,
    [join(root, 'dist', 'cli', 'index.js'), 'sandbox', '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: sandbox.stdout! });
  url = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      match?.[1] ? resolve(match[1]) : reject(new Error(`unexpected first line: ${line}`));
    });
    sandbox.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
});
afterAll(() => {
  sandbox?.kill('SIGTERM');
  rmSync(workdir, { recursive: true, force: true });
});

describe('docs/getting-started.md', () => {
  it('every block runs as written, and the program prints what the guide says', async () => {
    const all = blocks(guide);
    const here = (code: string) => code.replaceAll('http://127.0.0.1:4010', url);
    const program = all.filter((b) => b.lang === 'ts' && !b.skipped).map((b) => here(b.code));
    expect(program.length).toBeGreaterThanOrEqual(3);
    writeFileSync(join(workdir, 'quickstart.ts'), program.join('\n'));

    let output = '';
    for (const block of all.filter((b) => b.lang === 'sh' && !b.skipped)) {
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', here(block.code)], {
        cwd: workdir,
        timeout: 60_000,
      });
      output += `${stdout}\n`;
    }

    const printed = output
      .split('\n')
      .filter((line) => /^(collection|pulled|found|payout|unknown) /.test(line));
    const promised = (all.find((b) => b.lang === 'text')?.code ?? '').trim().split('\n');
    expect(printed).toHaveLength(promised.length);
    expect(printed[0]).toMatch(/^collection order-1001 \d+ pending$/);
    expect(printed[1]).toBe('pulled success stored success');
    expect(printed[2]).toBe('found order-1001');
    expect(printed[3]).toMatch(/^payout success \S+ \S+$/);
  }, 120_000);
});
