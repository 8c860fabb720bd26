// The operations page over a large store: `/api/summary` on 100,000 records (90 % final within
// the last day, 10 % open) against the same page on 1,000, and the longest stall of the
// dashboard process's event loop while it answers a burst of 20 requests (summaries and pages
// of 500 records), on SQLite and on PostgreSQL. Each dashboard runs in its own process
// (this file, `--serve`), with the defaults `pesakit dashboard` has; requests come from here.
// Rounds alternate the small and the large store; the figure is the median of the rounds.
// PostgreSQL: DATABASE_URL, or a throwaway cluster (PG_BIN, default Debian's PostgreSQL 15).
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { median, quick, report } from './lib/common.mjs';

const LARGE = quick ? 2_000 : 100_000;
const SMALL = quick ? 200 : 1_000;
const ROUNDS = quick ? 3 : 15;
const BURST = 20;
const TOKEN = 'bench-dashboard-token-0123456789abcdef';
const providers = ['vodacom', 'airtel', 'tigo', 'halotel'];

/** The measured process: a dashboard over the store; stdin `reset` / `report` the stall. */
async function serve(kind, location) {
  const { createDashboard } = await import('pesakit/dashboard');
  const store =
    kind === 'sqlite'
      ? await (await import('pesakit/sqlite')).SqliteReferenceStore.open(location)
      : await (await import('pesakit/postgres')).PostgresReferenceStore.open(location, {
          schema: 'bench',
        });
  const dashboard = createDashboard({ store, token: TOKEN, port: 0 });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  console.log(`listening on ${await dashboard.listen()}`);
  createInterface({ input: process.stdin }).on('line', async (line) => {
    if (line === 'reset') {
      delay.reset();
      console.log('reset');
    }
    if (line === 'report') console.log(`stall ${delay.max / 1e6}`);
    if (line === 'close') {
      await dashboard.close();
      await store.close();
      process.exit(0);
    }
  });
}

/** A dashboard process over `location`: `ask(line)` resolves with its next stdout line. */
async function startDashboard(kind, location) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), '--serve', kind, location],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise((resolve) => lines.once('line', resolve));
  const url = (await next()).replace('listening on ', '');
  const ask = (line) => {
    const answer = next();
    child.stdin.write(`${line}\n`);
    return answer;
  };
  return { url, ask, close: () => child.stdin.write('close\n') };
}

const get = async (url) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
};

/** One round against a dashboard: a summary's time, then the stall over a burst. */
async function round(dashboard) {
  const started = performance.now();
  await get(`${dashboard.url}api/summary`);
  const summaryMs = performance.now() - started;
  await dashboard.ask('reset');
  const pages = ['status=success,failed', 'status=success', 'status=initiating,pending,unknown'];
  await Promise.all(
    Array.from({ length: BURST }, (_, index) =>
      get(
        index % 2 === 0
          ? `${dashboard.url}api/summary?hours=${index % 4 === 0 ? 168 : 24}`
          : `${dashboard.url}api/records?limit=500&${pages[index % 3]}`,
      ),
    ),
  );
  const stallMs = Number((await dashboard.ask('report')).replace('stall ', ''));
  return { summaryMs, stallMs };
}

/** `count` records as the template row's copies: 90 % final in the last day, 10 % pending. */
function recordAt(index, now) {
  const createdAt = now - ((index * 7919) % 86_000_000) - 60_000;
  const status = index % 10 === 0 ? 'pending' : index % 10 === 1 ? 'failed' : 'success';
  return {
    createdAt,
    status,
    finalAt: status === 'pending' ? null : createdAt + 5_000 + (index % 600) * 1_000,
  };
}

async function seedSqlite(file, count) {
  const { SqliteReferenceStore } = await import('pesakit/sqlite');
  const store = await SqliteReferenceStore.open(file);
  await store.createIntent({
    merchantReference: 'template',
    product: 'collection',
    flow: 'mno',
    amount: 5000,
    msisdn: '255754123456',
  });
  await store.close();
  const database = new Database(file);
  const template = database.prepare('select * from pesakit_transactions').get();
  const columns = Object.keys(template);
  const insert = database.prepare(
    `insert into pesakit_transactions (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const now = Date.now();
  database.transaction(() => {
    for (let index = 1; index < count; index++) {
      const { createdAt, status, finalAt } = recordAt(index, now);
      const iso = (ms) => new Date(ms).toISOString();
      insert.run({
        ...template,
        merchant_reference: `BENCH-${String(index).padStart(7, '0')}`,
        provider: providers[index % 4],
        status,
        created_at: iso(createdAt),
        updated_at: iso(finalAt ?? createdAt),
        final_at: finalAt && iso(finalAt),
        last_payload: JSON.stringify({ status, reference: `ENG-${index}`, amount: 5000 }),
      });
    }
  })();
  database.exec('analyze');
  database.close();
}

/** The same records in PostgreSQL, made by the server from the template row in one statement. */
async function seedPostgres(url, count) {
  const { PostgresReferenceStore } = await import('pesakit/postgres');
  const store = await PostgresReferenceStore.open(url, { schema: 'bench' });
  await store.createIntent({
    merchantReference: 'template',
    product: 'collection',
    flow: 'mno',
    amount: 5000,
    msisdn: '255754123456',
  });
  await store.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    "select column_name from information_schema.columns where table_schema = 'bench' and table_name = 'pesakit_transactions'",
  );
  const age = "((g * 7919) % 86000000 + 60000) * interval '1 millisecond'";
  const final = `case when g % 10 = 0 then null else now() - ${age} + (5000 + (g % 600) * 1000) * interval '1 millisecond' end`;
  const overrides = {
    merchant_reference: "'BENCH-' || g",
    provider: `(array['${providers.join("','")}'])[1 + g % 4]`,
    status: "case when g % 10 = 0 then 'pending' when g % 10 = 1 then 'failed' else 'success' end",
    created_at: `now() - ${age}`,
    updated_at: `now() - ${age}`,
    final_at: final,
    last_payload: `'{"status":"success","amount":5000,"reference":"ENG-' || g || '"}'`,
  };
  const columns = rows.map((row) => row.column_name);
  const values = columns.map((column) => overrides[column] ?? `t.${column}`);
  await client.query(
    `insert into bench.pesakit_transactions (${columns.join(', ')}) select ${values.join(', ')} from bench.pesakit_transactions t, generate_series(1, ${count - 1}) g where t.merchant_reference = 'template'`,
  );
  await client.query('analyze bench.pesakit_transactions');
  await client.end();
}

/** DATABASE_URL's server, or a throwaway cluster (as user postgres when run as root). */
function startPostgres(directory) {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: () => {} };
  const bin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  const asPostgres = (file, args) =>
    process.getuid?.() === 0
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, file), ...args], {
          cwd: directory,
          stdio: 'ignore',
        })
      : execFileSync(join(bin, file), args, { stdio: 'ignore' });
  if (process.getuid?.() === 0) {
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

/** Small and large dashboards over one engine, alternated round by round; one row each figure. */
async function measure(engine, small, large) {
  const results = { small: [], large: [] };
  for (const dashboard of [small, large]) await round(dashboard);
  for (let index = 0; index < ROUNDS; index++) {
    results.small.push(await round(small));
    results.large.push(await round(large));
  }
  const figure = (name, key) => median(results[name].map((result) => result[key]));
  const size = (count) => count.toLocaleString('en');
  const [summary, summarySmall] = [figure('large', 'summaryMs'), figure('small', 'summaryMs')];
  report({
    benchmark: `Dashboard \`/api/summary\`, ${engine}, ${size(LARGE)} records`,
    figure: `${summary.toFixed(1)} ms`,
    baseline: `${size(SMALL)} records ${summarySmall.toFixed(1)} ms`,
    ratio: summary / summarySmall,
    floor: '≤ 50 ms',
    met: summary <= 50,
  });
  const [stall, stallSmall] = [figure('large', 'stallMs'), figure('small', 'stallMs')];
  report({
    benchmark: `Dashboard event-loop stall, ${engine}, ${size(LARGE)} records, ${BURST} requests at once`,
    figure: `${stall.toFixed(1)} ms`,
    baseline: `${size(SMALL)} records ${stallSmall.toFixed(1)} ms`,
    ratio: stall / stallSmall,
    floor: '≤ 100 ms',
    met: stall <= 100,
  });
}

async function main() {
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-dashboard-'));
  const postgres = startPostgres(directory);
  const started = [];
  try {
    const files = {
      small: join(directory, 'small.sqlite'),
      large: join(directory, 'large.sqlite'),
    };
    await seedSqlite(files.small, SMALL);
    await seedSqlite(files.large, LARGE);
    const sqlite = [
      await startDashboard('sqlite', files.small),
      await startDashboard('sqlite', files.large),
    ];
    started.push(...sqlite);
    await measure('SQLite', ...sqlite);
    const databases = {};
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    for (const name of ['small', 'large']) {
      await admin.query(`drop database if exists pesakit_bench_${name}`);
      await admin.query(`create database pesakit_bench_${name}`);
      const url = new URL(postgres.url);
      url.pathname = `/pesakit_bench_${name}`;
      databases[name] = url.toString();
    }
    await seedPostgres(databases.small, SMALL);
    await seedPostgres(databases.large, LARGE);
    const postgresDashboards = [
      await startDashboard('postgres', databases.small),
      await startDashboard('postgres', databases.large),
    ];
    started.push(...postgresDashboards);
    await measure('PostgreSQL', ...postgresDashboards);
    for (const dashboard of started.splice(0)) dashboard.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const name of ['small', 'large'])
      await admin.query(`drop database pesakit_bench_${name} with (force)`);
    await admin.end();
  } finally {
    for (const dashboard of started) dashboard.close();
    postgres.stop();
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') await serve(process.argv[3], process.argv[4]);
else await main();
