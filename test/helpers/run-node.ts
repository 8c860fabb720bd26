import { type ChildProcess, spawn } from 'node:child_process';

const root = new URL('../../', import.meta.url);

/** What a finished child process printed, and how it exited. */
export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunNodeOptions {
  /** The child's whole environment; by default this process's (runtime hooks included). */
  env?: NodeJS.ProcessEnv;
  /** Called for each complete stdout line as it arrives (e.g. to kill the child mid-run). */
  onStdoutLine?: (line: string, child: ChildProcess) => void;
  /** Gives the child a stdin pipe (`child.stdin`) instead of none, to type into it. */
  stdin?: boolean;
}

/**
 * Runs `node <args>` from the repository's root as a separate process and collects its output:
 * the one way the tests run a CLI, an example or a benchmark end to end.
 */
export function runNode(args: readonly string[], options: RunNodeOptions = {}): Promise<NodeRun> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'],
    ...(options.env ? { env: options.env } : {}),
  });
  let stdout = '';
  let stderr = '';
  let partialLine = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    stdout += text;
    if (!options.onStdoutLine) return;
    partialLine += text;
    let newline = partialLine.indexOf('\n');
    while (newline >= 0) {
      options.onStdoutLine(partialLine.slice(0, newline), child);
      partialLine = partialLine.slice(newline + 1);
      newline = partialLine.indexOf('\n');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
