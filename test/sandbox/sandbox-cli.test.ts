import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, temporaryDirectory } from '../reconciler-cli/harness.js';

// `npx pesakit sandbox` (docs/sandbox.md): a mistake on the command
// line is one clear line on stderr and an exit code, not a Node stack trace.

const directory = temporaryDirectory();
afterAll(() => directory.remove());

function seedFile(name: string, text: string): string {
  const path = join(directory.path, name);
  writeFileSync(path, text);
  return path;
}

function expectOneClearLine(stderr: string, pattern: RegExp) {
  expect(stderr).toMatch(pattern);
  expect(stderr).not.toMatch(/^\s+at /m); // no stack trace
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(/^pesakit sandbox: /);
}

describe('pesakit sandbox: a bad --seed or a busy port', () => {
  it('a seed file that does not exist: exit 2, one line naming the file', async () => {
    const missing = join(directory.path, 'missing.json');
    const run = await runCli(['sandbox', '--port', '0', '--seed', missing]);
    expect(run.code).toBe(2);
    expectOneClearLine(run.stderr, /missing\.json/);
    expect(run.stdout).toBe('');
  });

  it('a seed file that is not JSON: exit 2, one line', async () => {
    const run = await runCli(['sandbox', '--port', '0', '--seed', seedFile('bad.json', '{bad')]);
    expect(run.code).toBe(2);
    expectOneClearLine(run.stderr, /bad\.json.*JSON/);
  });

  it('a seed the sandbox refuses (an account without a password): exit 2, naming the field, no secret', async () => {
    const seed = seedFile(
      'no-password.json',
      JSON.stringify({
        accounts: [
          { product: 'collection', email: 'shop@example.tz' },
          { product: 'airtime', email: 'a@example.tz', password: 'seed-secret-9', status: 'nope' },
        ],
      }),
    );
    const run = await runCli(['sandbox', '--port', '0', '--seed', seed]);
    expect(run.code).toBe(2);
    expectOneClearLine(run.stderr, /seed\.accounts\.0\.password/);
    expect(run.stderr).not.toContain('seed-secret-9');
  });

  it('a port already in use: exit 1, one line saying which', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const run = await runCli(['sandbox', '--port', String(port)]);
      expect(run.code).toBe(1);
      expectOneClearLine(run.stderr, new RegExp(`${port}.*in use`));
    } finally {
      busy.close();
    }
  });
});

describe('pesakit openapi --out a path that cannot be written', () => {
  it('exits 1 with one line naming the file, no stack trace', async () => {
    const target = join(directory.path, 'no-such-dir', 'openapi.json');
    const run = await runCli(['openapi', '--out', target]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(target);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
