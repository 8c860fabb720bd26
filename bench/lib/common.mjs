// Helpers shared by the benchmarks. They live in bench/lib so that bench/run.mjs, which runs
// every bench/*.mjs, does not mistake them for benchmarks.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';

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

/** DATABASE_URL's server, or a throwaway cluster (as user postgres when run as root). */
export function startPostgres(directory) {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: () => {} };
  const bin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  const [root, quiet] = [process.getuid?.() === 0, { cwd: directory, stdio: 'ignore' }];
  const asPostgres = (file, args) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, file), ...args], quiet)
      : execFileSync(join(bin, file), args, quiet);
  if (root) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
    chownSync(directory, id('-u'), id('-g'));
  }
  const data = join(directory, 'data');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--locale=C']);
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${directory}`;
  asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(directory, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
  };
}

/** Calls the sandbox's control API (`/api/sandbox/_control/<path>`); throws unless it agrees. */
export async function control(url, path, body = {}) {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' } };
  const response = await fetch(`${url}/api/sandbox/_control/${path}`, {
    ...init,
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
}

/** `count` copies of a SQLite store's only row in one transaction, `row(g)` overriding copy g's. */
export function copySqliteRow(file, count, row) {
  const database = new Database(file);
  const template = database.prepare('select * from pesakit_transactions').get();
  const columns = Object.keys(template).filter((column) => column !== 'check_due_at');
  const values = columns.map((column) => `@${column}`).join(', ');
  const into = `insert into pesakit_transactions (${columns.join(', ')}) values (${values})`;
  const insert = database.prepare(into);
  database.transaction(() => {
    for (let g = 1; g <= count; g++) insert.run({ ...template, ...row(g) });
  })();
  database.exec('analyze');
  database.close();
}

/** The same in a PostgreSQL schema, by the server in one statement: `overrides` are SQL of g. */
export async function copyPostgresRow(url, schema, count, overrides, params = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    "select column_name from information_schema.columns where table_schema = $1 and table_name = 'pesakit_transactions' and is_generated = 'NEVER'",
    [schema],
  );
  const [table, columns] = [`${schema}.pesakit_transactions`, rows.map((row) => row.column_name)];
  const values = columns.map((column) => overrides[column] ?? `t.${column}`).join(', ');
  const copies = `select ${values} from ${table} t, generate_series(1, $1::int) g`;
  await client.query(`insert into ${table} (${columns.join(', ')}) ${copies}`, [count, ...params]);
  // As autovacuum would within a minute of such an insert (index-only scans need it).
  await client.query(`vacuum analyze ${table}`);
  await client.end();
}
