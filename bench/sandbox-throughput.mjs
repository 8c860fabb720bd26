// How much the sandbox serves compared with a bare Fastify POST route returning JSON, for three
// of its routes: `transaction/status` (bearer auth + validation + lookup), collection initiate
// (`initiate-payment/mno/`) and a disbursement payout. Target (issue #11): at least 0.85 of the
// bare route, in throughput and in server CPU per request. Printed, never asserted.
//
// Three processes: the sandbox and the bare route each in their own, and autocannon in a third
// (bench/lib/sandbox-throughput-load.mjs), never in a server's process.
// Two measures, alternated bare/sandbox and repeated:
// - throughput: autocannon as fast as the server answers; median and best of the rounds, with
//   the spread. On a shared machine it swings by ±20 % from run to run.
// - CPU per request at a fixed offered rate (autocannon's overallRate, below what either server
//   saturates at): the server's own `process.cpuUsage()` over the run, divided by the requests
//   it answered. Much steadier; the ratio is bare µs / sandbox µs (1.0 = as cheap as bare).
//
//   node bench/sandbox-throughput.mjs           # 3 rounds of 5 s per subject, 2 s warm-up
//   node bench/sandbox-throughput.mjs --quick   # 1 round of 1 s, no warm-up (the suite runs it)
// Knobs: BENCH_SANDBOX_ROUNDS, BENCH_SANDBOX_SECONDS, BENCH_SANDBOX_CONNECTIONS (default 64),
// BENCH_SANDBOX_RATE (fixed rate, default 1000/s), BENCH_SANDBOX_SUBJECTS (e.g. "status"),
// BENCH_SANDBOX_PROFILE=<dir> (both servers run with --cpu-prof, into <dir>/bare and <dir>/sandbox),
// BENCH_SANDBOX_MODULE=<file> (another build of the sandbox entry than dist/sandbox/index.js).
// Needs a built dist/.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BENCH_SEED } from './lib/sandbox-throughput-seed.mjs';
import { printTable, summarize } from './lib/stats.mjs';

const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const rounds = Number(process.env.BENCH_SANDBOX_ROUNDS ?? (quick ? 1 : 3));
const seconds = Number(process.env.BENCH_SANDBOX_SECONDS ?? (quick ? 1 : 5));
const warmupSeconds = quick ? 0 : 2;
const connections = Number(process.env.BENCH_SANDBOX_CONNECTIONS ?? (quick ? 16 : 64));
const rate = Number(process.env.BENCH_SANDBOX_RATE ?? (quick ? 200 : 1000));
const subjectNames = (process.env.BENCH_SANDBOX_SUBJECTS ?? 'status,initiate,payout').split(',');
const profileDir = process.env.BENCH_SANDBOX_PROFILE;
const TARGET = 0.85;

const serverFile = fileURLToPath(new URL('lib/sandbox-throughput-server.mjs', import.meta.url));
const loadFile = fileURLToPath(new URL('lib/sandbox-throughput-load.mjs', import.meta.url));
const [collection, disbursement] = BENCH_SEED.accounts;

async function startServer(mode) {
  const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${mode}`] : [];
  const child = spawn(process.execPath, [...flags, serverFile, mode], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    const match = /listening on (\S+)/.exec(line);
    if (match) return { child, url: match[1] };
  }
  throw new Error(`${mode}: the server exited before it was ready`);
}

async function stopServer(server) {
  if (server.child.exitCode !== null) return;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  await exited;
}

/** The server's own CPU time so far, in µs (user + system). */
async function cpuOf(server) {
  const reply = once(server.child, 'message');
  server.child.send('cpu');
  const [{ cpu }] = await reply;
  return cpu.user + cpu.system;
}

/** The load generator's process, started once (see bench/lib/sandbox-throughput-load.mjs). */
const loader = spawn(process.execPath, [loadFile], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});

// A load generator that dies must fail the benchmark, not leave it waiting for an answer.
let failRun;
loader.once('exit', (code) => failRun?.(new Error(`the load generator exited (${code})`)));

/** One autocannon run, in the load generator's process. */
function load(target, duration, fixedRate) {
  return new Promise((resolve, reject) => {
    failRun = reject;
    loader.once('message', (result) => {
      failRun = undefined;
      resolve(result);
    });
    loader.send({ ...target, connections, duration, rate: fixedRate });
  });
}

async function call(url, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/**
 * Resets the sandbox (so that no run inherits the records of the last one), then seeds what the
 * subject needs through the real API: a login and, for status, a transaction to look up.
 */
async function prepare(sandboxUrl, subject) {
  await call(sandboxUrl, '/api/sandbox/_control/reset', {});
  const credentials = (account) => ({ email: account.email, password: account.password });
  if (subject === 'payout') {
    const { token } = await call(
      sandboxUrl,
      '/api/sandbox/disbursement/login',
      credentials(disbursement),
    );
    return {
      path: '/api/sandbox/disbursement/payment',
      token,
      body: { msisdn: '255754123456', amount: 1000, name: 'Bench Payee' },
    };
  }
  const { token } = await call(sandboxUrl, '/api/sandbox/login', credentials(collection));
  // Numbers ending 998 never settle by themselves (autoSettle is off as well).
  const initiate = { amount: 1500, msisdn: '255754000998', description: 'bench order' };
  if (subject === 'initiate')
    return { path: '/api/sandbox/initiate-payment/mno/', token, body: initiate };
  const { controlNumber } = await call(
    sandboxUrl,
    '/api/sandbox/initiate-payment/mno/',
    initiate,
    token,
  );
  return { path: '/api/sandbox/transaction/status', token, body: { ref_id: controlNumber } };
}

/** What autocannon sends; the first request is made here and must answer 200. */
async function targetFor(server, subject) {
  if (server.mode === 'bare') {
    const body = { ref_id: '990000000001' };
    await call(server.url, '', body);
    return {
      url: server.url,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  }
  const { path, token, body } = await prepare(server.url, subject);
  await call(server.url, path, body, token);
  return {
    url: `${server.url}${path}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  };
}

function failures(result) {
  return result.non2xx + result.errors + result.timeouts;
}

async function throughputRun(server, subject) {
  const target = await targetFor(server, subject);
  const result = await load(target, seconds);
  return { rps: result.rps, failed: failures(result), p99: result.p99 };
}

async function cpuRun(server, subject) {
  const target = await targetFor(server, subject);
  const before = await cpuOf(server);
  const result = await load(target, seconds, rate);
  const spent = (await cpuOf(server)) - before;
  return {
    usPerRequest: spent / Math.max(1, result.total),
    failed: failures(result),
    total: result.total,
  };
}

const servers = await Promise.all(
  ['bare', 'sandbox'].map(async (mode) => ({ mode, ...(await startServer(mode)) })),
);
console.log(
  `sandbox throughput: ${connections} connections, ${rounds} round(s) of ${seconds} s per subject` +
    `${warmupSeconds ? ` after ${warmupSeconds} s warm-up` : ''}; CPU at a fixed ${rate} req/s` +
    `${quick ? ' (quick)' : ''}; servers and load generator in separate processes\n`,
);

const rows = [];
const verdicts = [];
try {
  for (const subject of subjectNames) {
    if (warmupSeconds > 0) {
      for (const server of servers) await load(await targetFor(server, subject), warmupSeconds);
    }
    const runs = { bare: [], sandbox: [] };
    const cpu = { bare: [], sandbox: [] };
    for (let round = 0; round < rounds; round++) {
      // Alternated, so that a change of load on the machine hits both alike.
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) runs[server.mode].push(await throughputRun(server, subject));
      for (const server of order) cpu[server.mode].push(await cpuRun(server, subject));
    }
    const rps = {
      bare: summarize(runs.bare.map((r) => r.rps)),
      sandbox: summarize(runs.sandbox.map((r) => r.rps)),
    };
    const us = {
      bare: summarize(cpu.bare.map((r) => r.usPerRequest)),
      sandbox: summarize(cpu.sandbox.map((r) => r.usPerRequest)),
    };
    const failed = [...runs.sandbox, ...cpu.sandbox, ...runs.bare, ...cpu.bare].reduce(
      (n, r) => n + r.failed,
      0,
    );
    for (const mode of ['bare', 'sandbox']) {
      const t = rps[mode];
      const c = us[mode];
      rows.push([
        subject,
        mode === 'bare' ? 'bare Fastify route' : 'sandbox',
        t.median.toFixed(0),
        t.max.toFixed(0),
        `${t.min.toFixed(0)}–${t.max.toFixed(0)} (±${((50 * (t.max - t.min)) / t.median).toFixed(0)} %)`,
        c.median.toFixed(0),
        `${c.min.toFixed(0)}–${c.max.toFixed(0)}`,
      ]);
    }
    const throughputRatio = rps.sandbox.median / rps.bare.median;
    const bestRatio = rps.sandbox.max / rps.bare.max;
    const cpuRatio = us.bare.median / us.sandbox.median;
    const met = throughputRatio >= TARGET && cpuRatio >= TARGET && failed === 0;
    verdicts.push(
      `${subject}: throughput ${throughputRatio.toFixed(2)}x of bare Fastify (best vs best ${bestRatio.toFixed(2)}x), ` +
        `CPU per request ${cpuRatio.toFixed(2)}x (bare ${us.bare.median.toFixed(0)} µs / sandbox ${us.sandbox.median.toFixed(0)} µs)` +
        `${failed > 0 ? `, ${failed} failed requests` : ''} → target ≥ ${TARGET} ${met ? 'met' : 'missed'}`,
    );
  }
} finally {
  loader.disconnect();
  await Promise.all(servers.map(stopServer));
}

printTable(
  [
    'subject',
    'server',
    'req/s median',
    'req/s best',
    'req/s spread',
    'CPU µs/req median',
    'CPU µs/req spread',
  ],
  rows,
);
console.log('');
for (const line of verdicts) console.log(line);
