import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { engineCallback } from '../callbacks/payloads.js';

// The CommonJS snippets of getting-started.md and callbacks.md, run as written: each saved as
// the `.cjs` file its first line names, in a project of `"type": "commonjs"` whose pesakit is
// the built package (dist/, through package.json's `require` exports), against a real sandbox
// holding the one sandbox account every page uses.

const root = fileURLToPath(new URL('../..', import.meta.url));
const MARK = '<!-- run by test/docs/commonjs-snippets.test.ts';

function snippets(page: string): { file: string; code: string }[] {
  const text = readFileSync(join(root, 'docs', page), 'utf8');
  const found: { file: string; code: string }[] = [];
  const pattern = /(<!--[^\n]*-->)\n```js\n([\s\S]*?)```/g;
  for (const [, comment = '', code = ''] of text.matchAll(pattern)) {
    if (!comment.startsWith(MARK)) continue;
    const file = /^\/\/ (\S+\.cjs)\n/.exec(code)?.[1];
    if (file === undefined) throw new Error(`${page}: a CommonJS snippet must name its .cjs file`);
    found.push({ file, code });
  }
  return found;
}

let sandbox: Sandbox;
let baseUrl: string;
const project = mkdtempSync(join(tmpdir(), 'pesakit-cjs-snippets-'));
const account = { email: 'shop@example.co.tz', password: 'sandbox-pass-1' };

beforeAll(async () => {
  sandbox = await createSandbox({
    autoSettle: false,
    seed: {
      accounts: [
        { product: 'collection', ...account },
        { product: 'airtime', ...account, status: 'active', balance: 50_000 },
        { product: 'disbursement', ...account, status: 'active', balance: 100_000 },
      ],
    },
  });
  baseUrl = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  writeFileSync(join(project, 'package.json'), '{"type":"commonjs"}\n');
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules', 'pesakit'), 'dir');
  symlinkSync(
    join(root, 'node_modules', 'express'),
    join(project, 'node_modules', 'express'),
    'dir',
  );
});
afterAll(async () => {
  await sandbox.close();
  rmSync(project, { recursive: true, force: true });
});

function start(file: string, code: string): { child: ChildProcess; output: () => string } {
  writeFileSync(join(project, file), code);
  const child = spawn(process.execPath, [file], {
    cwd: project,
    env: { PATH: process.env['PATH'] ?? '', PESAKIT_BASE_URL: baseUrl, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

describe('getting-started.md, in CommonJS', () => {
  const [quickstart, ...others] = snippets('getting-started.md');

  it('has one CommonJS client, and it pays against the sandbox with require()', async () => {
    expect(others).toEqual([]);
    expect(quickstart?.code).toMatch(/require\('pesakit'\)/);
    const run = start(quickstart!.file, quickstart!.code);
    expect(await exited(run.child), run.output()).toBe(0);
    expect(run.output()).toMatch(/^collection order-1001-cjs \d+$/m);
  });
});

describe('callbacks.md, in CommonJS', () => {
  const [shop, ...others] = snippets('callbacks.md');

  it('mounts the receiver in Express with require(), and it takes a callback', async () => {
    expect(others).toEqual([]);
    expect(shop?.code).toMatch(/require\('pesakit\/express'\)/);
    const run = start(shop!.file, shop!.code);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        run.child.stdout?.on('data', () => {
          const match = /shop listening on (\S+)/.exec(run.output());
          if (match?.[1]) resolve(match[1]);
        });
        run.child.on('exit', (code) => reject(new Error(`exited ${code}: ${run.output()}`)));
      });
      const callback = engineCallback({ paymentReference: 'ENG-UNKNOWN-1', amount: 1000 });
      const answer = await fetch(`${url}/pesakit/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(callback),
      });
      expect(answer.status, run.output()).toBe(200);
      const wrongMethod = await fetch(`${url}/pesakit/callback`, { method: 'PUT' });
      expect(wrongMethod.status).toBe(405);
    } finally {
      run.child.kill('SIGTERM');
      await exited(run.child);
    }
  });
});
