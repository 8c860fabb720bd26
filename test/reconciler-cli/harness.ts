import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

const root = new URL('../../', import.meta.url);

/** A stream that keeps what is written, for running the commands in-process. */
export class Captured extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
  lines(): string[] {
    return this.text.split('\n').filter((line) => line !== '');
  }
}

/** Captured stdout/stderr and a stop signal that never fires (for `--once`). */
export function captureIo(
  env: Record<string, string | undefined> = {},
  stopRequested: Promise<void> = new Promise(() => {}),
) {
  return { out: new Captured(), err: new Captured(), env, stopRequested };
}

/** A temporary directory removed by the returned function. */
export function temporaryDirectory(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'pesakit-reconcile-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * What the Node runtime itself needs, carried into a child whose environment is otherwise
 * exactly what cron gives it: PATH, and the test runner's module hook (the Node 24 pass swaps
 * in better-sqlite3 13 through `NODE_OPTIONS`, scripts/test-node24.mjs). No credentials.
 */
export function runtimeEnv(): Record<string, string> {
  const carried: Record<string, string> = { PATH: process.env['PATH'] ?? '' };
  for (const name of ['NODE_OPTIONS', 'PESAKIT_BETTER_SQLITE3_DIR']) {
    const value = process.env[name];
    if (value !== undefined) carried[name] = value;
  }
  return carried;
}

/**
 * Runs `pesakit <args>` as a separate process from the sources (tsx), with exactly the given
 * environment (plus the runtime's own, `runtimeEnv`): what cron does, argv and env included.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { onStdoutLine?: (line: string, child: ReturnType<typeof spawn>) => void } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: root,
    env: { ...runtimeEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    pending += chunk.toString();
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      options.onStdoutLine?.(pending.slice(0, newline), child);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
