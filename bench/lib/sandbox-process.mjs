// Starts `pesakit sandbox` (the built CLI) in its own process, so that the sandbox's CPU and
// memory are never counted against the subject being measured.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const cli = fileURLToPath(new URL('../../dist/cli/index.js', import.meta.url));

/**
 * Spawns the sandbox on port 0 with `seed` and resolves with `{ url, close }` once it prints its
 * ready line.
 */
export async function startSandboxProcess(seed) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (npm run bench builds).`);
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-'));
  const seedFile = join(directory, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  const sandbox = await spawnUntilListening([cli, 'sandbox', '--port', '0', '--seed', seedFile]);
  return { ...sandbox, directory };
}

/**
 * Spawns `node <args>` and resolves with `{ url, pid, close }` once it prints
 * `listening on <url>`; rejects if it exits first. `close()` sends SIGTERM and waits for exit.
 */
export async function spawnUntilListening(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited (${code}) before it was ready`)),
    );
  });
  return {
    url,
    pid: child.pid,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
