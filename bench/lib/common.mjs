// Helpers shared by the benchmarks. They live in bench/lib so that bench/run.mjs, which runs
// every bench/*.mjs, does not mistake them for benchmarks.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const quick = process.argv.includes('--quick');

/** The sandbox's collection routes, as the spec gives them (the SDK's own table is internal). */
export const collectionPaths = {
  login: '/api/sandbox/login',
  status: '/api/sandbox/transaction/status',
  initiateMno: '/api/sandbox/initiate-payment/mno/',
};

/** The account every benchmark that talks to the sandbox logs in with. */
export const account = { email: 'bench@pesakit.tz', password: 'bench-pass-123' };

/** The median of a list of numbers. */
export function median(values) {
  if (values.length === 0) throw new Error('median: no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Prints one figure for bench/run.mjs's table, as a `BENCH {json}` line, and a readable line.
 * `ratio` is figure / baseline; `met` is undefined when the figure has no floor.
 */
export function report({ benchmark, figure, baseline, ratio, floor = '—', met }) {
  const row = {
    benchmark,
    figure,
    baseline,
    ratio: `${ratio.toFixed(2)}×`,
    floor,
    met: met === undefined ? '—' : met ? 'yes' : 'no',
  };
  console.log(`${benchmark}: ${figure} against ${baseline} (${row.ratio}; floor ${floor})`);
  console.log(`BENCH ${JSON.stringify(row)}`);
}

/**
 * Spawns `node <args>` and resolves with `{ url, child, close }` once it prints
 * `listening on <url>`; rejects if it exits first. `close()` sends SIGTERM and waits for exit.
 */
export async function spawnUntilListening(args, options = {}) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], ...options });
  const url = await new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) early`)));
  });
  return {
    url,
    child,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The sandbox from pesakit/sandbox in its own process (bench/lib/sandbox-server.mjs), so that
 * its CPU and memory are never counted against the subject. `seed` as createSandbox takes it.
 */
export function startSandbox(seed, recordLimit = 10_000) {
  const server = fileURLToPath(new URL('sandbox-server.mjs', import.meta.url));
  return spawnUntilListening([server, JSON.stringify(seed), String(recordLimit)]);
}

/** Logs in to the sandbox's collection API with plain fetch; the bearer token. */
export async function collectionToken(url) {
  const response = await fetch(url + collectionPaths.login, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`login answered ${response.status}`);
  return body.token;
}

/** A raw JSON POST with a bearer token through the global fetch; the parsed answer. */
export async function rawPost(url, token, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
  });
  return JSON.parse(await response.text());
}

/** Runs `work(index)` for 0..count-1 with `concurrency` in flight; resolves when all are done. */
export async function pool(count, concurrency, work) {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
