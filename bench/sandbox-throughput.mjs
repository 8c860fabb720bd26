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
// BENCH_SANDBOX_MODULE=<file> (another build of the sandbox entry than dist/sandbox/index.js),
// BENCH_SANDBOX_COMPARE=<file> (a second sandbox build in a third server, measured in the same
// rounds: old vs new alternated in one sitting), BENCH_SANDBOX_MEASURES (`throughput,cpu`; `cpu`
// alone for a quick comparison), BENCH_SANDBOX_CPU_ROUNDS (fixed-rate rounds, default the
// rounds; cheap, so worth more of them).
// The CPU ratio printed is also taken pair by pair: each round's bare run and sandbox run are
// back to back, so their ratio cancels the machine's slower drifts in load; the verdict quotes
// the median of those paired ratios beside the ratio of the medians.
// A third server, `contract` (BENCH_SANDBOX_CONTRACT=0 leaves it out), is the bare route plus what
// the API contract makes every sandbox answer carry: x-request-id, the five API security headers
// and the route's real answer, sent the sandbox's own request. The sandbox's ratio against it is
// printed beside the verdict, for information: the issue's target is against the bare route.
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
const compareModule = process.env.BENCH_SANDBOX_COMPARE;
const measures = (process.env.BENCH_SANDBOX_MEASURES ?? 'throughput,cpu').split(',');
const cpuRounds = Number(process.env.BENCH_SANDBOX_CPU_ROUNDS ?? rounds);
const withContract = process.env.BENCH_SANDBOX_CONTRACT !== '0';
const TARGET = 0.85;

const serverFile = fileURLToPath(new URL('lib/sandbox-throughput-server.mjs', import.meta.url));
const loadFile = fileURLToPath(new URL('lib/sandbox-throughput-load.mjs', import.meta.url));
const [collection, disbursement] = BENCH_SEED.accounts;

async function startServer(mode, name = mode, module = undefined) {
  const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${name}`] : [];
  const env = module === undefined ? process.env : { ...process.env, BENCH_SANDBOX_MODULE: module };
  const child = spawn(process.execPath, [...flags, serverFile, mode], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env,
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

/** Sets what the contract server answers: the sandbox's own answer to the same request. */
async function teachContract(server, answer) {
  const taught = once(server.child, 'message');
  server.child.send({ answer });
  await taught;
}

/** What autocannon sends; the first request is made here and must answer 200. */
async function targetFor(server, subject) {
  if (server.mode === 'contract') {
    const sandbox = servers.find((s) => s.name === 'sandbox');
    const { path, token, body } = await prepare(sandbox.url, subject);
    await teachContract(server, await call(sandbox.url, path, body, token));
    await call(server.url, path, body, token);
    return {
      url: `${server.url}${path}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    };
  }
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

const serverSpecs = [
  { mode: 'bare', name: 'bare', label: 'bare Fastify route' },
  { mode: 'sandbox', name: 'sandbox', label: 'sandbox' },
  ...(withContract
    ? [{ mode: 'contract', name: 'contract', label: 'bare + contract headers and answer' }]
    : []),
  ...(compareModule
    ? [
        {
          mode: 'sandbox',
          name: 'compare',
          label: 'sandbox (compare build)',
          module: compareModule,
        },
      ]
    : []),
];
const servers = await Promise.all(
  serverSpecs.map(async (spec) => ({
    ...spec,
    ...(await startServer(spec.mode, spec.name, spec.module)),
  })),
);
/** Round r's order: rotated, so that each server goes first, last and between alike. */
const orderOf = (round) => servers.map((_, i) => servers[(i + round) % servers.length]);
console.log(
  `sandbox throughput: ${connections} connections, ${rounds} round(s) of ${seconds} s per subject` +
    `${warmupSeconds ? ` after ${warmupSeconds} s warm-up` : ''}; CPU at a fixed ${rate} req/s, ${cpuRounds} round(s)` +
    `${compareModule ? `; a second sandbox build in the same rounds: ${compareModule}` : ''}` +
    `${measures.includes('throughput') ? '' : '; throughput not measured'}` +
    `${quick ? ' (quick)' : ''}; servers and load generator in separate processes\n`,
);

const rows = [];
const verdicts = [];
try {
  for (const subject of subjectNames) {
    if (warmupSeconds > 0) {
      for (const server of servers) await load(await targetFor(server, subject), warmupSeconds);
    }
    const runs = Object.fromEntries(servers.map((server) => [server.name, []]));
    const cpu = Object.fromEntries(servers.map((server) => [server.name, []]));
    if (measures.includes('throughput')) {
      for (let round = 0; round < rounds; round++) {
        // Alternated, so that a change of load on the machine hits every server alike.
        for (const server of orderOf(round))
          runs[server.name].push(await throughputRun(server, subject));
      }
    }
    if (measures.includes('cpu')) {
      for (let round = 0; round < cpuRounds; round++) {
        for (const server of orderOf(round)) cpu[server.name].push(await cpuRun(server, subject));
      }
    }
    const summary = (list, pick) => (list.length > 0 ? summarize(list.map(pick)) : undefined);
    const rps = Object.fromEntries(
      servers.map((s) => [s.name, summary(runs[s.name], (r) => r.rps)]),
    );
    const us = Object.fromEntries(
      servers.map((s) => [s.name, summary(cpu[s.name], (r) => r.usPerRequest)]),
    );
    const failed = servers
      .flatMap((server) => [...runs[server.name], ...cpu[server.name]])
      .reduce((n, r) => n + r.failed, 0);
    const figure = (value) => (value === undefined ? '–' : value.toFixed(0));
    for (const server of servers) {
      const t = rps[server.name];
      const c = us[server.name];
      rows.push([
        subject,
        server.label,
        figure(t?.median),
        figure(t?.max),
        t
          ? `${t.min.toFixed(0)}–${t.max.toFixed(0)} (±${((50 * (t.max - t.min)) / t.median).toFixed(0)} %)`
          : '–',
        figure(c?.median),
        c ? `${c.min.toFixed(0)}–${c.max.toFixed(0)}` : '–',
      ]);
    }
    for (const name of servers.filter((s) => s.mode === 'sandbox').map((s) => s.name)) {
      const label = name === 'sandbox' ? subject : `${subject} (compare build)`;
      const throughputRatio = rps[name] ? rps[name].median / rps.bare.median : Number.NaN;
      const bestRatio = rps[name] ? rps[name].max / rps.bare.max : Number.NaN;
      const cpuRatio = us[name] ? us.bare.median / us[name].median : Number.NaN;
      // Each round's bare and sandbox runs ran back to back: their ratio, round by round.
      const paired =
        cpu[name].length > 0
          ? summarize(cpu[name].map((r, i) => cpu.bare[i].usPerRequest / r.usPerRequest))
          : undefined;
      const met =
        (Number.isNaN(throughputRatio) || throughputRatio >= TARGET) &&
        (Number.isNaN(cpuRatio) || cpuRatio >= TARGET) &&
        failed === 0;
      const throughputPart = rps[name]
        ? `throughput ${throughputRatio.toFixed(2)}x of bare Fastify (best vs best ${bestRatio.toFixed(2)}x)`
        : 'throughput not measured';
      const cpuPart = us[name]
        ? `CPU per request ${cpuRatio.toFixed(2)}x (bare ${figure(us.bare.median)} µs / sandbox ${figure(us[name].median)} µs; ` +
          `paired by round ${paired.median.toFixed(2)}x, ${paired.min.toFixed(2)}–${paired.max.toFixed(2)})`
        : 'CPU not measured';
      const contractPart =
        withContract && name === 'sandbox'
          ? `; against the bare route with the contract's headers and answer (informational): ${[
              rps.contract && rps[name]
                ? `throughput ${(rps[name].median / rps.contract.median).toFixed(2)}x`
                : undefined,
              us.contract && us[name]
                ? `CPU per request ${(us.contract.median / us[name].median).toFixed(2)}x (${figure(us.contract.median)} µs)`
                : undefined,
            ]
              .filter(Boolean)
              .join(', ')}`
          : '';
      verdicts.push(
        `${label}: ${throughputPart}, ${cpuPart}` +
          `${failed > 0 ? `, ${failed} failed requests` : ''} → target ≥ ${TARGET} ${
            !met ? 'missed' : rps[name] && us[name] ? 'met' : 'not judged (one measure only)'
          }${contractPart}`,
      );
    }
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
