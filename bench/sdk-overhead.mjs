// The SDK's cost per call over plain fetch (issue #11: an SDK call within 1.25× of raw fetch).
// A tiny node:http server runs in its own process (this file, started with --serve), so its CPU
// is never counted against the client. In this process, subject and baseline take turns in
// blocks, round after round:
// - read: `pesakit.collection.status(controlNumber)` vs raw fetch of the same POST, with the same
//   bearer token and body, then JSON.parse;
// - money: `pesakit.collection.initiateMno(...)` with the SQLite store (write-ahead intent
//   before sending; references and outcome in one write after: two commits) vs raw fetch of
//   the same POST, and vs raw fetch plus the same two durable writes done by hand with
//   better-sqlite3 (what the disk costs whoever writes); and, to separate the SDK from the
//   store, the same call with the memory store.
// Within a round the two alternate call by call. Per round: the median latency of each, and the
// client CPU per call (process.cpuUsage), which is steadier on a shared machine. Printed: the median of the per-round ratios and their spread,
// then one verdict line per call against 1.25×. `--quick` only proves that it runs.
// BENCH_SDK_DIST=<dir> imports pesakit from that dist/ instead (old build vs new, alternated).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rawHttpPost } from './lib/raw-http.mjs';
import { printTable, summarize, us } from './lib/stats.mjs';

const TOKEN = 'bench-token-0123456789';
const CONTROL_NUMBER = '991234567890';
const PATHS = {
  login: '/api/sandbox/login',
  status: '/api/sandbox/transaction/status',
  initiate: '/api/sandbox/initiate-payment/mno/',
};
const transaction = {
  controlNumber: CONTROL_NUMBER,
  reference: 'PSK-REF-0001',
  external_reference: null,
  channel: 'mno',
  amount: 15000,
  msisdn: '255754123456',
  provider: 'vodacom',
  status: 'pending',
  transactionID: null,
  paid_amount: null,
  created_at: '2026-11-23T10:00:00Z',
  updated_at: '2026-11-23T10:00:00Z',
};
const answers = {
  [PATHS.login]: JSON.stringify({
    token: TOKEN,
    token_type: 'Bearer',
    user: { id: 1, name: 'Bench Shop', email: 'bench@example.co.tz' },
  }),
  [PATHS.status]: JSON.stringify({ message: 'Transaction found', data: transaction }),
};
// Every initiation gets new references: a store refuses to give one to two payments.
let issued = 0;
const initiation = () => {
  issued += 1;
  return JSON.stringify({
    message: 'Payment request sent',
    status: 'pending',
    controlNumber: `99${String(issued).padStart(10, '0')}`,
    reference: `PSK-${issued}`,
    amount: 15000,
  });
};

if (process.argv.includes('--serve')) {
  // The server: one fixed answer per route, the same cost for every subject. It reads the whole
  // body before answering, as any real server must.
  const server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      const body = req.url === PATHS.initiate ? initiation() : answers[req.url];
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(body ?? '{"message":"not found"}');
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
  });
} else {
  await main();
}

async function main() {
  // BENCH_SDK_DIST: the dist/ directory to import pesakit from (an old build, say, to alternate
  // two builds with the same benchmark); by default the package's own dist/.
  const dist = process.env.BENCH_SDK_DIST;
  const { Pesakit } = await import(dist ? pathToFileURL(join(dist, 'index.js')).href : 'pesakit');
  const { SqliteReferenceStore } = await import(
    dist ? pathToFileURL(join(dist, 'sqlite.js')).href : 'pesakit/sqlite'
  );
  const quick = process.argv.includes('--quick');
  const ROUNDS = quick ? 3 : Number(process.env.BENCH_SDK_ROUNDS ?? 5);
  const BLOCK = quick ? 20 : Number(process.env.BENCH_SDK_CALLS ?? 200);
  const WARMUP = quick ? 20 : 200;
  const TARGET = 1.25;

  const server = await startServer();
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-sdk-overhead-'));
  const credentials = { collection: { email: 'bench@example.co.tz', password: 'secret-pass' } };
  const sqliteStore = await SqliteReferenceStore.open(join(directory, 'store.sqlite'));
  const withSqlite = new Pesakit({
    baseUrl,
    environment: 'sandbox',
    credentials,
    store: sqliteStore,
  });
  const withMemory = new Pesakit({ baseUrl, environment: 'sandbox', credentials });
  // The disk's share, measured apart: the write-ahead contract needs two durable writes per
  // money call (the intent before sending, the answer after). Here they are done by hand with
  // better-sqlite3, around the same raw fetch: a fresh file given the store's own schema (the
  // store opens it once, to migrate it, and closes it), the store's pragmas (WAL,
  // synchronous=FULL, the same busy timeout), one INSERT of the intent and one UPDATE of the
  // answer (references, status, payload), each its own commit. What is left between this and
  // the SDK is the SDK's own work, not the disk's.
  const byHandFile = join(directory, 'by-hand.sqlite');
  await (await SqliteReferenceStore.open(byHandFile)).close();
  const { default: Database } = await import('better-sqlite3');
  const byHand = new Database(byHandFile);
  byHand.pragma('journal_mode = WAL');
  byHand.pragma('busy_timeout = 5000');
  byHand.pragma('synchronous = FULL');
  const writeIntent = byHand.prepare(
    'insert into pesakit_transactions (merchant_reference, product, flow, amount_cents, msisdn, ' +
      'status, created_at, updated_at, check_count, metadata, effect_status, effect_attempts) ' +
      "values (?, 'collection', 'mno', ?, ?, 'initiating', ?, ?, 0, '{}', 'none', 0)",
  );
  const writeAnswer = byHand.prepare(
    'update pesakit_transactions set status = ?, control_number = ?, payment_reference = ?, ' +
      'last_payload = ?, attempted_at = ?, updated_at = ? where merchant_reference = ?',
  );

  const rawPost = async (path, body) => {
    const response = await fetch(baseUrl + path, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${TOKEN}`,
      },
      body: JSON.stringify(body),
    });
    return JSON.parse(await response.text());
  };
  // The same POST through node:http and the global (keep-alive) agent: what the SDK itself sends
  // with since stop 20. Against this baseline the SDK's own work shows apart from fetch's cost.
  const rawHttp = (path, body) => rawHttpPost(baseUrl + path, TOKEN, body);
  const payment = { amount: 15000, msisdn: '255754123456' };
  // Each raw money call sends what initiateMno sends: a fresh reference in the callback URL.
  let sequence = 0;
  const callbackUrl = () => `https://shop.example.co.tz/paid?pesakit_ref=bench-${++sequence}`;

  const rawPostWithDurableWrites = async () => {
    const reference = `bench-${++sequence}`;
    const now = new Date().toISOString();
    writeIntent.run(reference, payment.amount * 100, payment.msisdn, now, now);
    const answer = await rawPost(PATHS.initiate, {
      ...payment,
      callback_url: `https://shop.example.co.tz/paid?pesakit_ref=${reference}`,
    });
    const at = new Date().toISOString();
    writeAnswer.run(
      'pending',
      answer.controlNumber,
      answer.reference,
      JSON.stringify(answer),
      at,
      at,
      reference,
    );
    return answer;
  };
  const initiateWithSqlite = () =>
    withSqlite.collection.initiateMno({
      ...payment,
      callback_url: 'https://shop.example.co.tz/paid',
    });

  const comparisons = [
    {
      name: 'read: collection.status',
      baseline: () => rawPost(PATHS.status, { ref_id: CONTROL_NUMBER }),
      subject: () => withMemory.collection.status(CONTROL_NUMBER),
      check: (answer) => answer?.data?.controlNumber === CONTROL_NUMBER,
      verdict: true,
    },
    {
      name: 'read: collection.status',
      against: 'raw node:http',
      baseline: () => rawHttp(PATHS.status, { ref_id: CONTROL_NUMBER }),
      subject: () => withMemory.collection.status(CONTROL_NUMBER),
      check: (answer) => answer?.data?.controlNumber === CONTROL_NUMBER,
      verdict: false,
    },
    {
      name: 'money: initiateMno, SQLite store',
      baseline: () => rawPost(PATHS.initiate, { ...payment, callback_url: callbackUrl() }),
      subject: initiateWithSqlite,
      check: (answer) => /^99\d{10}$/.test(answer?.controlNumber),
      verdict: true,
    },
    {
      name: 'money: initiateMno, SQLite store',
      against: 'raw fetch + 2 durable writes by hand',
      baseline: rawPostWithDurableWrites,
      subject: initiateWithSqlite,
      check: (answer) => /^99\d{10}$/.test(answer?.controlNumber),
      verdict: true,
    },
    {
      name: 'money: initiateMno, memory store',
      baseline: () => rawPost(PATHS.initiate, { ...payment, callback_url: callbackUrl() }),
      subject: () =>
        withMemory.collection.initiateMno({
          ...payment,
          callback_url: 'https://shop.example.co.tz/paid',
        }),
      check: (answer) => /^99\d{10}$/.test(answer?.controlNumber),
      verdict: false,
    },
  ];

  try {
    // A subject that failed quietly (a 404 body, say) would be timing the wrong path.
    for (const { name, baseline, subject, check } of comparisons) {
      for (const [which, call] of [
        ['baseline', baseline],
        ['subject', subject],
      ]) {
        const answer = await call();
        if (!check(answer)) throw new Error(`${name} (${which}) got ${JSON.stringify(answer)}`);
      }
      for (let i = 0; i < WARMUP; i++) {
        await baseline();
        await subject();
      }
    }

    console.log(
      `sdk overhead: sequential calls to a node:http server in its own process (loopback), ` +
        `${ROUNDS} rounds of ${BLOCK} calls per side, alternated call by call, after ${WARMUP} warm-up`,
    );
    const rows = [];
    const verdicts = [];
    for (const comparison of comparisons) {
      const perRound = [];
      for (let round = 0; round < ROUNDS; round++) {
        perRound.push(await pairs(comparison.baseline, comparison.subject, BLOCK));
      }
      const latency = perRound.map((r) => r.subject.median / r.baseline.median);
      const cpu = perRound.map((r) => r.subject.cpuUs / r.baseline.cpuUs);
      const med = (values) => summarize(values).median;
      const spread = (values) => {
        const s = summarize(values);
        return `${s.min.toFixed(2)}–${s.max.toFixed(2)}`;
      };
      const against = comparison.against ?? 'raw fetch';
      rows.push([
        comparison.name,
        against,
        us(med(perRound.map((r) => r.baseline.median))),
        us(med(perRound.map((r) => r.subject.median))),
        `${med(latency).toFixed(2)}x`,
        spread(latency),
        `${med(perRound.map((r) => r.baseline.cpuUs)).toFixed(0)} µs`,
        `${med(perRound.map((r) => r.subject.cpuUs)).toFixed(0)} µs`,
        `${med(cpu).toFixed(2)}x`,
        spread(cpu),
      ]);
      if (comparison.verdict) verdicts.push([comparison.name, against, med(latency), med(cpu)]);
    }
    console.log('');
    printTable(
      [
        'call',
        'baseline',
        'baseline median',
        'SDK median',
        'ratio',
        'spread',
        'baseline CPU/call',
        'SDK CPU/call',
        'CPU ratio',
        'spread',
      ],
      rows,
    );
    console.log('');
    for (const [name, against, latency, cpu] of verdicts) {
      const within = latency <= TARGET;
      console.log(
        `verdict: ${name} at ${latency.toFixed(2)}x ${against} per call (target <= ${TARGET}x; ` +
          `client CPU ${cpu.toFixed(2)}x): ${within ? 'within the target' : 'over the target'}`,
      );
    }
  } finally {
    await sqliteStore.close?.();
    byHand.close();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * `count` pairs of sequential calls, baseline and subject in turn (each going first in every
 * other pair), so that a burst of load on the shared machine hits both alike. Per side: the
 * median latency (ms) and the client CPU per call (µs).
 */
async function pairs(baseline, subject, count) {
  const sides = { baseline: { call: baseline }, subject: { call: subject } };
  for (const side of Object.values(sides)) Object.assign(side, { latencies: [], cpu: 0 });
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? [sides.baseline, sides.subject] : [sides.subject, sides.baseline];
    for (const side of order) {
      const cpuBefore = process.cpuUsage();
      const start = performance.now();
      await side.call();
      side.latencies.push(performance.now() - start);
      const cpu = process.cpuUsage(cpuBefore);
      side.cpu += cpu.user + cpu.system;
    }
  }
  const result = (side) => ({ median: summarize(side.latencies).median, cpuUs: side.cpu / count });
  return { baseline: result(sides.baseline), subject: result(sides.subject) };
}

/** This file again, with --serve, in its own process; resolves once it listens. */
async function startServer() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (\d+)/.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
