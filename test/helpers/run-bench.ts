import { spawn } from 'node:child_process';

const root = new URL('../../', import.meta.url);

export interface BenchRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bench/<file> --quick` against the built package (dist/) in its own process, with this
 * process's environment (so the Node 24 pass's NODE_OPTIONS and better-sqlite3 carry over).
 * Performance is measured in bench/, never asserted in tests: callers only check that the
 * benchmark ran end to end and printed its verdict.
 */
export function runBenchQuick(file: string): Promise<BenchRun> {
  const child = spawn(process.execPath, [`bench/${file}`, '--quick'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}
