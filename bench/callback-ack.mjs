// How fast pesakit acknowledges callbacks: autocannon, 256 connections, against an app in its
// own process, comparing pesakit's middleware (SQLite inbox) with a bare route of the same
// framework answering 200, in the same run. Target (issue #7): at least 0.5 of the bare
// route's throughput, and p99 under 10 ms. Printed, never asserted.
//
// Two loads per subject: closed-loop at 256 connections (throughput; p99 there is mostly
// queueing on a 2-core machine, bare routes included), then a FIXED offered rate (autocannon
// -R, fewer connections) well under saturation, where p99 shows each subject's own latency.
// For each, the server's CPU time per request (process.cpuUsage() in the app, read through
// GET /__bench/cpu before and after): steadier than req/s on a shared machine; and how long
// the server's event loop was held up (p99 of perf_hooks' event-loop delay over the load): a
// synchronous commit shows there, whatever the load generator's own queueing.
//
//   node bench/callback-ack.mjs           # 10 s per subject, after a 2 s warm-up
//   node bench/callback-ack.mjs --quick   # 1 s per subject, no warm-up, no synchronous=NORMAL
//                                         # variant (the suite runs this: it runs, it prints)
// Knobs: BENCH_ACK_SECONDS, BENCH_ACK_CONNECTIONS (default 256), BENCH_ACK_RATE (req/s of the
// fixed-rate run, default 2000; --quick 200), BENCH_ACK_RATE_CONNECTIONS (default 32),
// BENCH_ACK_DIST (the dist/ directory to load pesakit from, default this checkout's: to
// alternate an old and a new build with the same bench), BENCH_ACK_FRAMEWORKS (comma-separated,
// default `express,fastify`: `fastify` alone for short alternated runs), BENCH_ACK_NORMAL=0 (skip
// the synchronous=NORMAL variant), BENCH_ACK_GATHER_MS (the SQLite store's `inbox.gatherMs`,
// passed to the app; unset: the build's default). Needs a built dist/. The CPU per request is printed as
// user + system: system time is mostly the inbox's WAL writes (and the sockets).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { printTable } from './lib/stats.mjs';

const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const seconds = Number(process.env.BENCH_ACK_SECONDS ?? (quick ? 1 : 10));
const warmupSeconds = quick ? 0 : 2;
const connections = Number(process.env.BENCH_ACK_CONNECTIONS ?? 256);
const rate = Number(process.env.BENCH_ACK_RATE ?? (quick ? 200 : 2000));
const rateConnections = Number(process.env.BENCH_ACK_RATE_CONNECTIONS ?? 32);
const frameworks = (process.env.BENCH_ACK_FRAMEWORKS ?? 'express,fastify')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name === 'express' || name === 'fastify');
const withNormal = !quick && process.env.BENCH_ACK_NORMAL !== '0';
const appFile = fileURLToPath(new URL('lib/callback-ack-app.mjs', import.meta.url));
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 10;

/** A merchant callback as the platform sends it; `n` makes every body (and its dedup key) new. */
function callbackBody(n) {
  const paymentReference = `ENG${n.toString(16).padStart(16, '0')}`;
  return JSON.stringify({
    message: 'Transaction processed',
    code: '200',
    status: true,
    description: 'Payment received',
    data: {
      providerType: 'MNO',
      providerName: 'Vodacom',
      amount: 15000,
      paymentReference,
      payerMobile: '255754123456',
      transactionDate: '2026-11-23 10:00:00',
      transactionID: `TX${n}`,
      transactionChannel: 'USSD',
    },
    controlNumber: String(990000000000 + n),
    external_reference: null,
  });
}

async function startApp(framework, subject) {
  const child = spawn(process.execPath, [appFile, framework, subject], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const match = /listening on (\S+)/.exec(line);
    if (match) return { url: match[1], child };
  }
  throw new Error(`${framework} ${subject}: the app exited before it was ready`);
}

async function stopApp(app) {
  app.child.kill('SIGTERM');
  if (app.child.exitCode === null) await once(app.child, 'exit');
}

let counter = 0;
function load(url, duration, options = {}) {
  return autocannon({
    url: `${url}/pesakit/callback?pesakit_ref=bench`,
    connections: options.connections ?? connections,
    ...(options.rate ? { overallRate: options.rate } : {}),
    duration,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: callbackBody(++counter) }),
      },
    ],
  });
}

/** The app's CPU time (user + system, µs) so far, and its event-loop delay since the last read. */
async function statsOf(url) {
  const response = await fetch(`${url}/__bench/cpu`);
  const { user, system, loopP99Ms } = await response.json();
  return { user, system, loopP99Ms };
}

/** One load, with the server's CPU time per request it answered and its event-loop delay. */
async function timed(url, run) {
  const before = await statsOf(url);
  const result = await run();
  const after = await statsOf(url);
  const user = after.user - before.user;
  const system = after.system - before.system;
  const perRequest = (micros) =>
    result.requests.total > 0 ? micros / result.requests.total : Number.NaN;
  return {
    loopP99: after.loopP99Ms,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuPerRequest: perRequest(user + system),
    userPerRequest: perRequest(user),
    systemPerRequest: perRequest(system),
  };
}

async function measure(framework, subject) {
  const app = await startApp(framework, subject);
  try {
    // Fail loudly rather than time an error path: one callback must be acknowledged with 200.
    const probe = await fetch(`${app.url}/pesakit/callback?pesakit_ref=bench`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: callbackBody(++counter),
    });
    if (probe.status !== 200) {
      throw new Error(
        `${framework} ${subject}: a valid callback answered ${probe.status}: ${await probe.text()}`,
      );
    }
    if (warmupSeconds > 0) await load(app.url, warmupSeconds);
    const closed = await timed(app.url, () => load(app.url, seconds));
    const fixed = await timed(app.url, () =>
      load(app.url, seconds, { rate, connections: rateConnections }),
    );
    return { framework, subject, ...closed, fixed };
  } finally {
    await stopApp(app);
  }
}

console.log(
  `callback-ack: ${connections} connections, ${seconds} s per subject${warmupSeconds ? ` after ${warmupSeconds} s warm-up` : ''}${quick ? ' (quick)' : ''}; then ${rate} req/s offered over ${rateConnections} connections, ${seconds} s`,
);
const subjects = {
  bare: 'bare 200 route',
  receiver: 'pesakit, SQLite inbox (default)',
  'receiver-normal': 'pesakit, SQLite synchronous=NORMAL',
};
const rows = [];
const fixedRows = [];
const verdicts = [];
/** CPU per request, user + system apart: `261 µs (201 + 60)`. */
const cpuCell = (r) =>
  `${r.cpuPerRequest.toFixed(0)} µs (${r.userPerRequest.toFixed(0)} + ${r.systemPerRequest.toFixed(0)})`;
for (const framework of frameworks) {
  // Bare first, then the receiver, back to back, so load changes on the machine hit both.
  const bare = await measure(framework, 'bare');
  const withInbox = await measure(framework, 'receiver');
  // Informational (not in --quick): is the fsync of each commit what limits the inbox?
  const relaxed = withNormal ? await measure(framework, 'receiver-normal') : undefined;
  for (const r of relaxed ? [bare, withInbox, relaxed] : [bare, withInbox]) {
    rows.push([
      r.framework,
      subjects[r.subject],
      r.rps.toFixed(0),
      `${r.p50} ms`,
      `${r.p99} ms`,
      `${r.loopP99.toFixed(1)} ms`,
      String(r.total),
      String(r.failures),
      cpuCell(r),
    ]);
    fixedRows.push([
      r.framework,
      subjects[r.subject],
      r.fixed.rps.toFixed(0),
      `${r.fixed.p50} ms`,
      `${r.fixed.p99} ms`,
      `${r.fixed.loopP99.toFixed(1)} ms`,
      String(r.fixed.total),
      String(r.fixed.failures),
      cpuCell(r.fixed),
    ]);
  }
  const ratio = withInbox.rps / bare.rps;
  const met = ratio >= TARGET_RATIO && withInbox.p99 < TARGET_P99_MS && withInbox.failures === 0;
  const cpuRatio = withInbox.cpuPerRequest / bare.cpuPerRequest;
  verdicts.push(
    `${framework}: ratio ${ratio.toFixed(2)} of the bare route (target ≥ ${TARGET_RATIO}), p99 ${withInbox.p99} ms (target < ${TARGET_P99_MS} ms)` +
      `${withInbox.failures > 0 ? `, ${withInbox.failures} failed requests` : ''} → ${met ? 'target met' : 'target missed'}` +
      (relaxed
        ? ` (synchronous=NORMAL: ratio ${(relaxed.rps / bare.rps).toFixed(2)}, p99 ${relaxed.p99} ms)`
        : '') +
      `; at ${rate} req/s offered: p99 ${withInbox.fixed.p99} ms vs ${bare.fixed.p99} ms bare (event-loop delay p99 ${withInbox.fixed.loopP99.toFixed(1)} ms vs ${bare.fixed.loopP99.toFixed(1)} ms); server CPU ${withInbox.cpuPerRequest.toFixed(0)} µs/request vs ${bare.cpuPerRequest.toFixed(0)} µs bare (×${cpuRatio.toFixed(2)}, ratio by CPU ${(1 / cpuRatio).toFixed(2)})`,
  );
}
const header = [
  'framework',
  'subject',
  'req/s',
  'p50',
  'p99',
  'loop p99',
  'requests',
  'non-2xx/errors',
  'CPU/request (user + system)',
];
console.log(`\nclosed loop, ${connections} connections:`);
printTable(header, rows);
console.log(`\nfixed rate, ${rate} req/s offered over ${rateConnections} connections:`);
printTable(header, fixedRows);
console.log('');
for (const line of verdicts) console.log(line);
