// The acknowledgement path without HTTP: `receiver.receive()` over a SQLite file store (WAL,
// the writer and checkpointer threads), called with callbacks in groups of G at a time, as the
// server's event loop hands them over. Prints the CPU per callback of each thread of this
// process (main, inbox writer, checkpointer, the rest: V8's own) and the bytes the process
// wrote per callback (WAL and checkpoint), from /proc (Linux; elsewhere only the process total).
//
// Why it exists: an HTTP run cannot separate the durable append's cost from the framework's,
// and most of the append's cost is per commit, so it depends on how many callbacks share one
// (G). Its references can be random (as callbacks arrive in settlement order) or counting up
// (as bench/callback-ack.mjs sends them): a b-tree keyed by the reference costs a random page
// per callback in the first case and almost nothing in the second (docs/benchmarks.md, stop 15).
//
//   node bench/callback-ack-append.mjs           # 8,000 callbacks per case, groups of 4 and 16
//   node bench/callback-ack-append.mjs --quick   # 400 per case (the suite runs this)
// Knobs: BENCH_APPEND_COUNT, BENCH_APPEND_GROUPS (comma-separated, default `4,16`),
// BENCH_ACK_DIST (the dist/ to load pesakit from, to alternate an old and a new build),
// BENCH_APPEND_ORDERS (`random,sequential` by default; either alone), BENCH_APPEND_DIR (where
// the database file goes; `/dev/shm`, a tmpfs whose fsync costs nothing, takes the disk's fsync
// latency out and leaves the CPU cost of a commit: a loaded machine's disk otherwise decides
// the group sizes),
// BENCH_APPEND_GATHER_MS (the store's `inbox.gatherMs`; unset: the build's default).
// BENCH_APPEND_RATE (callbacks per second, e.g. 2000): instead of groups, an open loop — callbacks
// offered at that rate whatever the answers (as a server's I/O phases hand them over, a few per
// millisecond), for BENCH_APPEND_COUNT callbacks; adds the latency of each `receive()` (p50, p99).
// That is the load under which the gathering window (stop 16) changes the groups: a closed loop
// of G callbacks at a time makes the same groups of G whatever the window.
// Needs a built dist/.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { printTable } from './lib/stats.mjs';

const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const count = Number(process.env.BENCH_APPEND_COUNT ?? (quick ? 400 : 8000));
const groups = (process.env.BENCH_APPEND_GROUPS ?? '4,16').split(',').map(Number);
const orders = (process.env.BENCH_APPEND_ORDERS ?? 'random,sequential').split(',');
const rate = process.env.BENCH_APPEND_RATE ? Number(process.env.BENCH_APPEND_RATE) : undefined;
const storeOptions =
  process.env.BENCH_APPEND_GATHER_MS === undefined
    ? {}
    : { inbox: { gatherMs: Number(process.env.BENCH_APPEND_GATHER_MS) } };
const dist = process.env.BENCH_ACK_DIST
  ? pathToFileURL(`${process.env.BENCH_ACK_DIST.replace(/\/+$/, '')}/`)
  : new URL('../dist/', import.meta.url);
const { Pesakit } = await import(new URL('index.js', dist).href);
const { SqliteReferenceStore } = await import(new URL('sqlite.js', dist).href);
const onLinux = process.platform === 'linux';

/** CPU ticks (user, system) of every thread of this process, by thread id. */
function threadTicks() {
  if (!onLinux) return new Map();
  const ticks = new Map();
  for (const id of readdirSync('/proc/self/task')) {
    try {
      const fields = readFileSync(`/proc/self/task/${id}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks.set(Number(id), [Number(fields[11]), Number(fields[12])]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ticks;
}

function bytesWritten() {
  if (!onLinux) return Number.NaN;
  const line = readFileSync('/proc/self/io', 'utf8')
    .split('\n')
    .find((row) => row.startsWith('wchar:'));
  return Number(line?.split(':')[1] ?? Number.NaN);
}

let serial = Math.floor(Math.random() * 1e9);
function callback(order) {
  serial += 1;
  const paymentReference =
    order === 'random'
      ? `ENG${Math.random().toString(16).slice(2, 18).padStart(16, '0')}`
      : `ENG${serial.toString(16).padStart(16, '0')}`;
  return Buffer.from(
    JSON.stringify({
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
        transactionID: `TX${serial}`,
        transactionChannel: 'USSD',
      },
      controlNumber: String(990000000000 + serial),
      external_reference: null,
    }),
  );
}

const headers = {
  host: '127.0.0.1:40000',
  'content-type': 'application/json',
  'content-length': '330',
  connection: 'keep-alive',
  'user-agent': 'autocannon',
};

async function receiveAll(receiver, bodies, group) {
  for (let start = 0; start < bodies.length; start += group) {
    const answers = await Promise.all(
      bodies
        .slice(start, start + group)
        .map((body) =>
          receiver.receive({ method: 'POST', url: '/callback?pesakit_ref=bench', headers, body }),
        ),
    );
    if (answers.some((answer) => answer.status !== 200)) {
      throw new Error(
        `a valid callback was answered ${answers.find((a) => a.status !== 200).status}`,
      );
    }
  }
}

/**
 * Offers `bodies` at `rate` per second, never waiting for answers; resolves with the latencies
 * (ms) and the number of answer batches: a group's callbacks are all answered in the turn of the
 * event loop that brings its commit's outcome, so batches ≈ commits (the mean group size is
 * callbacks / batches).
 */
async function receiveAtRate(receiver, bodies, perSecond) {
  const latencies = [];
  let batches = 0;
  let inBatch = false;
  const answers = [];
  const started = performance.now();
  let sent = 0;
  while (sent < bodies.length) {
    const due = Math.min(
      bodies.length,
      Math.floor(((performance.now() - started) * perSecond) / 1000),
    );
    for (; sent < due; sent += 1) {
      const at = performance.now();
      answers.push(
        receiver
          .receive({
            method: 'POST',
            url: '/callback?pesakit_ref=bench',
            headers,
            body: bodies[sent],
          })
          .then((answer) => {
            latencies.push(performance.now() - at);
            if (!inBatch) {
              batches += 1;
              inBatch = true;
              setImmediate(() => {
                inBatch = false;
              });
            }
            if (answer.status !== 200)
              throw new Error(`a valid callback was answered ${answer.status}`);
          }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(answers);
  return { latencies: latencies.sort((a, b) => a - b), batches };
}

async function measure(order, group) {
  const directory = mkdtempSync(
    join(process.env.BENCH_APPEND_DIR ?? tmpdir(), 'pesakit-bench-append-'),
  );
  const before = threadTicks();
  const store = await SqliteReferenceStore.open(join(directory, 'store.sqlite'), storeOptions);
  const pesakit = new Pesakit({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:9', store });
  const receiver = pesakit.createCallbackReceiver({ onPaid() {}, onFailed() {}, onReview() {} });
  try {
    // Warm-up (starts the writer and checkpointer threads and lets the JIT settle).
    await receiveAll(
      receiver,
      Array.from({ length: Math.max(200, count / 4) }, () => callback(order)),
      group,
    );
    const bodies = Array.from({ length: count }, () => callback(order));
    const ticks0 = threadTicks();
    const cpu0 = process.cpuUsage();
    const bytes0 = bytesWritten();
    const { latencies, batches } =
      rate === undefined ? {} : await receiveAtRate(receiver, bodies, rate);
    if (rate === undefined) await receiveAll(receiver, bodies, group);
    const cpu = process.cpuUsage(cpu0);
    const bytes = bytesWritten() - bytes0;
    const ticks1 = threadTicks();
    // The threads started by the store: the file's checkpointer, which the writer starts just
    // before its own thread (stop 16: one checkpointer per store file), then the writer.
    const started = [...ticks1.keys()].filter((id) => !before.has(id)).sort((a, b) => a - b);
    const perCallback = (id) => {
      const [user0, system0] = ticks0.get(id) ?? [0, 0];
      const [user1, system1] = ticks1.get(id) ?? [user0, system0];
      return ((user1 - user0 + system1 - system0) * 10_000) / count; // ticks are 10 ms
    };
    const main = perCallback(process.pid);
    const checkpointer = started[0] === undefined ? Number.NaN : perCallback(started[0]);
    const writer = started[1] === undefined ? Number.NaN : perCallback(started[1]);
    const total = (cpu.user + cpu.system) / count;
    return {
      order,
      group,
      total,
      user: cpu.user / count,
      system: cpu.system / count,
      main,
      writer,
      checkpointer,
      rest: total - main - (writer || 0) - (checkpointer || 0),
      bytes: bytes / count,
      p50: latencies?.[Math.floor(latencies.length * 0.5)],
      p99: latencies?.[Math.floor(latencies.length * 0.99)],
      meanGroup: batches ? count / batches : undefined,
    };
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

const micros = (value) => (Number.isFinite(value) ? `${value.toFixed(0)} µs` : '-');
console.log(
  `callback-ack-append: receive() over a SQLite file store, ${count} callbacks per case${quick ? ' (quick)' : ''}${rate ? `, offered at ${rate}/s` : ''}${storeOptions.inbox ? `, gatherMs ${storeOptions.inbox.gatherMs}` : ''}; CPU and bytes written per callback`,
);
// Builds before stop 15 let `await store.close()` end a process that had nothing else to keep
// it alive (exit code 13): a referenced timer keeps this one alive, so they can be measured too.
const keepAlive = setInterval(() => {}, 60_000);
const rows = [];
for (const group of rate === undefined ? groups : [rate]) {
  for (const order of orders) {
    const r = await measure(order, group);
    rows.push([
      r.order,
      String(r.group),
      `${micros(r.total)} (${r.user.toFixed(0)} + ${r.system.toFixed(0)})`,
      micros(r.main),
      micros(r.writer),
      micros(r.checkpointer),
      micros(r.rest),
      Number.isFinite(r.bytes) ? `${Math.round(r.bytes)} B` : '-',
      ...(rate === undefined
        ? []
        : [`${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} ms`, r.meanGroup.toFixed(1)]),
    ]);
  }
}
printTable(
  [
    'references',
    rate === undefined ? 'group' : 'offered/s',
    'process (user + system)',
    'main',
    'writer',
    'checkpointer',
    'other threads',
    'bytes written',
    ...(rate === undefined ? [] : ['latency p50 / p99', 'mean group']),
  ],
  rows,
);
clearInterval(keepAlive);
