// The sandbox in chaos mode, in its own process: the built CLI, every fault drawn (lies
// included), logs large enough that nothing a verifier reads is dropped.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chaosFaultNames } from 'pesakit/sandbox';
import { sandboxSeed } from './accounts.js';
import type { SoakOptions } from './options.js';

export interface SandboxProcess {
  url: string;
  /** GET or POST on the control API; throws on anything but 2xx. */
  control<T>(path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

export async function startSandbox(
  options: SoakOptions,
  directory: string,
  cli: string,
  lateMs: number,
): Promise<SandboxProcess> {
  const seedFile = join(directory, 'sandbox-seed.json');
  await writeFile(seedFile, JSON.stringify(sandboxSeed(options.payments)));
  const child = spawn(
    process.execPath,
    [
      cli,
      'sandbox',
      '--port',
      '0',
      '--seed',
      seedFile,
      '--chaos',
      String(options.seed),
      '--chaos-rate',
      String(options.rate),
      '--chaos-faults',
      chaosFaultNames.join(','),
      '--chaos-late-ms',
      String(lateMs),
      '--record-limit',
      '1000000',
      '--log-limit',
      '10000000',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr?.pipe(createWriteStream(join(directory, 'sandbox.log')));
  const url = await readyUrl(child);
  const base = `${url}/api/sandbox/_control`;
  return {
    url,
    async control<T>(path: string, body?: unknown): Promise<T> {
      const response = await fetch(
        `${base}/${path}`,
        body === undefined
          ? {}
          : {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            },
      );
      const text = await response.text();
      if (!response.ok)
        throw new Error(`sandbox ${path}: ${response.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    },
    stop: () => stopChild(child),
  };
}

function readyUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`the sandbox exited (${code}) before it was ready`)),
    );
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
