// Which process is the bottleneck in each subject of reconciler-throughput.mjs? The same three
// subjects (raw fetch, the SDK's collection.status() loop, the reconciler's runOnce over
// SQLite), same sandbox process, same N and concurrency; for each run it prints
//   - this process's CPU per record and its utilisation (CPU time / wall time: 1.00 = one core),
//     and its main thread's utilisation alone (the event loop, which one core caps),
//   - the sandbox process's CPU per record and utilisation (from /proc/<pid>/stat, 10 ms ticks),
//   - the requests in flight: their time-weighted mean and the share of the run's wall time
//     with fewer than `concurrency` in flight (counted from fetch() to its response's headers,
//     through a wrapper on the global fetch, which the SDK's status calls use).
// If the sandbox is near 1.00 in the raw subject but well below in the reconciler's, the
// reconciler leaves the server idle; if this process is near 1.00, the client is the limit.
// Linux only (/proc). Diagnostic: prints, asserts nothing.
//
// `--memory` adds a fourth subject: the same reconciler over a MemoryReferenceStore holding the
// same records — what the pass would do if the store's leases and releases cost nothing on the
// event loop (the memory store's lease scans every record per page: fine at a few thousand).
//
//   node bench/lib/reconciler-pipeline.mjs [--dist /tmp/other-dist] [--rounds 3] [--memory]
//   BENCH_RECONCILER_RECORDS=3000 (default)
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandboxProcess } from './sandbox-process.mjs';
import { account, seed, seedPendingCollections } from './seed-store.mjs';

const argValue = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const dist = argValue('--dist');
const ROUNDS = Number(argValue('--rounds') ?? 3);
const RECORDS = Number(process.env.BENCH_RECONCILER_RECORDS ?? 3000);
const CONCURRENCY = 8;

// --dist: the subject's build comes from another directory (the sandbox and the seeding stay
// on this worktree's build, the same for both).
const load = (file) => import(pathToFileURL(resolve(dist ?? 'dist', file)).href);
const { endpointPath, endpoints, Pesakit, MemoryReferenceStore } = await load('index.js');
const { SqliteReferenceStore } = await load('sqlite.js');

// Requests in flight, integrated over time.
const flight = { now: 0, since: performance.now(), weighted: 0, belowMs: 0 };
const tick = () => {
  const at = performance.now();
  const span = at - flight.since;
  flight.weighted += span * flight.now;
  if (flight.now < CONCURRENCY) flight.belowMs += span;
  flight.since = at;
};
const realFetch = globalThis.fetch;
globalThis.fetch = function countedFetch(...args) {
  tick();
  flight.now += 1;
  const settled = () => {
    tick();
    flight.now -= 1;
  };
  const promise = realFetch.apply(this, args);
  promise.then(settled, settled);
  return promise;
};

const ticksPerSecond = 100;
/** CPU µs of a process (all its threads) or, as `<pid>/task/<tid>`, of one thread. */
const cpuMicros = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
};

const sandbox = await startSandboxProcess(seed);
const file = join(sandbox.directory, 'pipeline.sqlite');
try {
  const controlNumbers = await seedPendingCollections(file, sandbox.url, RECORDS);
  const login = await realFetch(
    `${sandbox.url}${endpointPath(endpoints.collectionLogin, 'sandbox')}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    },
  ).then((response) => response.json());
  const statusUrl = `${sandbox.url}${endpointPath(endpoints.collectionStatus, 'sandbox')}`;
  const loop = (one) => async () => {
    let next = 0;
    const worker = async () => {
      while (next < controlNumbers.length) await one(controlNumbers[next++]);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return controlNumbers.length;
  };
  const raw = loop(async (ref_id) => {
    const response = await globalThis.fetch(statusUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
      body: JSON.stringify({ ref_id }),
    });
    const body = await response.json();
    if (body?.data?.status !== 'pending') throw new Error(`raw: ${JSON.stringify(body)}`);
  });
  const bare = new Pesakit({
    environment: 'sandbox',
    baseUrl: sandbox.url,
    credentials: { collection: account },
  });
  const sdk = loop(async (reference) => {
    const { data } = await bare.collection.status(reference);
    if (data.status !== 'pending') throw new Error(`sdk: ${JSON.stringify(data)}`);
  });
  const store = await SqliteReferenceStore.open(file);
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: sandbox.url,
    credentials: { collection: account },
    store,
  });
  const reconciler = pesakit.createReconciler({ concurrency: CONCURRENCY, ratePerSecond: 1e6 });
  const reconcile = async () => {
    const summary = await reconciler.runOnce({ force: true });
    if (summary.checked !== controlNumbers.length || summary.errors !== 0) {
      throw new Error(`reconciler: ${JSON.stringify(summary)}`);
    }
    return summary.checked;
  };
  const subjects = { raw, sdk, reconciler: reconcile };
  let memoryReconciler;
  if (process.argv.includes('--memory')) {
    // The SQLite store's records, copied into memory with their control numbers.
    const memory = new MemoryReferenceStore();
    const open = await store.listOpen({ limit: RECORDS + 1 });
    for (const record of open) {
      const { merchantReference, product, flow, amount, msisdn } = record;
      await memory.createIntent({ merchantReference, product, flow, amount, msisdn });
      await memory.attachReferences(merchantReference, { controlNumber: record.controlNumber });
      await memory.transition(merchantReference, 'pending');
    }
    memoryReconciler = new Pesakit({
      environment: 'sandbox',
      baseUrl: sandbox.url,
      credentials: { collection: account },
      store: memory,
    }).createReconciler({ concurrency: CONCURRENCY, ratePerSecond: 1e6 });
    subjects.memory = async () => {
      const summary = await memoryReconciler.runOnce({ force: true });
      if (summary.checked !== controlNumbers.length || summary.errors !== 0) {
        throw new Error(`memory reconciler: ${JSON.stringify(summary)}`);
      }
      return summary.checked;
    };
  }
  for (const name of Object.keys(subjects)) await subjects[name]();

  const rows = [];
  const names = Object.keys(subjects);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length];
      tick();
      Object.assign(flight, { weighted: 0, belowMs: 0 });
      const serverBefore = cpuMicros(sandbox.pid);
      // The main thread alone (the event loop: JavaScript, better-sqlite3) against the whole
      // process (with GC and libuv threads): the event loop is what one core caps.
      const mainThread = `${process.pid}/task/${process.pid}`;
      const mainBefore = cpuMicros(mainThread);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const checked = await subjects[name]();
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      tick();
      const server = cpuMicros(sandbox.pid) - serverBefore;
      const main = cpuMicros(mainThread) - mainBefore;
      const client = used.user + used.system;
      rows.push({
        name,
        perSecond: (checked / wallMs) * 1000,
        clientUs: client / checked,
        clientSysUs: used.system / checked,
        clientUtil: client / 1000 / wallMs,
        mainUtil: main / 1000 / wallMs,
        mainUs: main / checked,
        serverUs: server / checked,
        serverUtil: server / 1000 / wallMs,
        inFlight: flight.weighted / wallMs,
        below: flight.belowMs / wallMs,
      });
    }
  }
  await reconciler.close();
  await memoryReconciler?.close();
  await store.close();

  console.log(
    `reconciler pipeline: ${RECORDS} pending collections, concurrency ${CONCURRENCY}, ` +
      `${ROUNDS} round(s)${dist ? `, subject build ${dist}` : ''}`,
  );
  console.log(
    'subject      rec/s  client µs (sys)  client util  main µs  main thread util  sandbox µs  sandbox util  in flight  <8 in flight',
  );
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(11)}  ${row.perSecond.toFixed(0).padStart(5)}  ` +
        `${row.clientUs.toFixed(0).padStart(9)} (${row.clientSysUs.toFixed(0).padStart(3)})  ` +
        `${row.clientUtil.toFixed(2).padStart(11)}  ${row.mainUs.toFixed(0).padStart(7)}  ${row.mainUtil.toFixed(2).padStart(16)}  ${row.serverUs.toFixed(0).padStart(10)}  ` +
        `${row.serverUtil.toFixed(2).padStart(12)}  ${row.inFlight.toFixed(2).padStart(9)}  ` +
        `${(row.below * 100).toFixed(1).padStart(11)} %`,
    );
  }
} finally {
  await sandbox.close();
  rmSync(sandbox.directory, { recursive: true, force: true });
}
