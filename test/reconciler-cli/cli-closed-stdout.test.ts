import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { collectionInReview } from '../helpers/in-review.js';

// Checks the CLI in a pipeline: `pesakit review list --json | head -1`,
// `pesakit openapi | head`. When the reader goes away first, the next write to stdout fails
// with EPIPE — and the CLI died on it with Node's "Unhandled 'error' event" stack trace and
// exit 1, instead of what a Unix tool does: stop writing, and exit with its own code.

const cli = fileURLToPath(new URL('../../dist/cli/index.js', import.meta.url));
let directory: string;
let file: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'pesakit-closed-stdout-'));
  file = join(directory, 'payments.sqlite');
  const store = await SqliteReferenceStore.open(file);
  for (let index = 0; index < 50; index += 1) {
    const reference = `review-${index}`;
    await collectionInReview(store, reference);
  }
  await store.close();
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Runs the built CLI with its stdout's reader closed before it writes anything. */
function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('the CLI when the reader of its stdout has gone (| head)', () => {
  it('review list --json: no stack trace, and its own exit code (3: records wait)', async () => {
    const run = await runWithClosedStdout(['review', 'list', '--json', '--store', file]);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(run.code).toBe(3);
  });

  it('openapi: no stack trace, exit 0', async () => {
    const run = await runWithClosedStdout(['openapi']);
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(run.code).toBe(0);
  });
});
