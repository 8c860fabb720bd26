import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type NodeRun, type RunNodeOptions, runNode } from '../helpers/run-node.js';

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

/**
 * What the Node runtime itself needs, carried into a child whose environment is otherwise
 * exactly what cron gives it: PATH, and the runner's `NODE_OPTIONS`. No credentials.
 */
export function runtimeEnv(): Record<string, string> {
  const carried: Record<string, string> = { PATH: process.env['PATH'] ?? '' };
  for (const name of ['NODE_OPTIONS']) {
    const value = process.env[name];
    if (value !== undefined) carried[name] = value;
  }
  return carried;
}

export type CliRun = NodeRun;

/**
 * Runs `pesakit <args>` as a separate process from the sources (tsx), with exactly the given
 * environment (plus the runtime's own, `runtimeEnv`): what cron does, argv and env included.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: Pick<RunNodeOptions, 'onStdoutLine' | 'stdin'> = {},
): Promise<CliRun> {
  return runNode(['--import', 'tsx', 'src/cli/index.ts', ...args], {
    ...options,
    env: { ...runtimeEnv(), ...env },
  });
}
