// The operations page over a large store: `/api/summary` on 100,000 records (90 % final within
// the last day, 10 % open) against the same page on 1,000, and the longest stall of the
// dashboard process's event loop while it answers a burst of 20 requests (summaries and pages
// of 500 records), on SQLite and on PostgreSQL. Each dashboard runs in its own process
// (this file, `--serve`), with the defaults `pesakit dashboard` has; requests come from here.
// Rounds alternate the small and the large store; the figure is the median of the rounds.
// PostgreSQL: DATABASE_URL, or a throwaway cluster (PG_BIN, default Debian's PostgreSQL 15).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as lib from './lib/common.mjs';

const { median, quick, report } = lib;
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

/** The template every row copies: an intent, written by the store itself. */
async function writeTemplate(store) {
  await store.records.create({
    merchantReference: 'template',
    ...{ product: 'collection', flow: 'mno', amount: 5000, msisdn: '255754123456' },
  });
  await store.close();
}

async function seedSqlite(file, count) {
  await writeTemplate(await (await import('pesakit/sqlite')).SqliteReferenceStore.open(file));
  const [now, iso] = [Date.now(), (ms) => new Date(ms).toISOString()];
  lib.copySqliteRow(file, count - 1, (index) => {
    const { createdAt, status, finalAt } = recordAt(index, now);
    return {
      merchant_reference: `BENCH-${String(index).padStart(7, '0')}`,
      provider: providers[index % 4],
      status,
      created_at: iso(createdAt),
      updated_at: iso(finalAt ?? createdAt),
      final_at: finalAt && iso(finalAt),
      last_payload: JSON.stringify({ status, reference: `ENG-${index}`, amount: 5000 }),
    };
  });
}

/** The same records in PostgreSQL, made by the server from the template row in one statement. */
async function seedPostgres(url, count) {
  const { PostgresReferenceStore } = await import('pesakit/postgres');
  await writeTemplate(await PostgresReferenceStore.open(url, { schema: 'bench' }));
  const age = "((g * 7919) % 86000000 + 60000) * interval '1 millisecond'";
  const final = `case when g % 10 = 0 then null else now() - ${age} + (5000 + (g % 600) * 1000) * interval '1 millisecond' end`;
  await lib.copyPostgresRow(url, 'bench', count - 1, {
    merchant_reference: "'BENCH-' || g",
    provider: `(array['${providers.join("','")}'])[1 + g % 4]`,
    status: "case when g % 10 = 0 then 'pending' when g % 10 = 1 then 'failed' else 'success' end",
    created_at: `now() - ${age}`,
    updated_at: `now() - ${age}`,
    final_at: final,
    last_payload: `'{"status":"success","amount":5000,"reference":"ENG-' || g || '"}'`,
  });
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
  const postgres = lib.startPostgres(directory);
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
