// The reconciler's own share of a check, without the network: the platform is a `fetch` that
// answers at once (a `pending` status about the record asked for), so what is left is the SDK's
// call path, the reconciler's JavaScript and the store. Subtracting the SDK's own
// `collection.status()` loop over the same `fetch` leaves the reconciler's share, per store:
//
//   memory  the reconciler's JavaScript alone (and the memory store's);
//   sqlite  what the benchmark runs: a WAL file reopened with `SqliteReferenceStore.open(path)`;
//   store   no reconciler at all: leaseDue + releaseLeases pages over the SQLite file, timed apart.
//
// CPU µs per record (user and system apart) is what holds on a loaded machine; wall time is
// printed for the stalls (commits, checkpoints) the event loop waits in.
//
//   node bench/lib/reconciler-own-share.mjs [--dist <dir>] [--records 2000] [--passes 5]
//        [--subjects sdk,memory,sqlite,store] [--json]
//
// `--dist` points at another build's dist/ (an old commit built elsewhere) so that two builds
// can be alternated in one sitting; the default is this checkout's dist/. Not part of
// `bench/run.mjs` (it lives in bench/lib/), and never asserted: a measuring tool.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
};
const dist = resolve(argument('--dist', fileURLToPath(new URL('../../dist', import.meta.url))));
const RECORDS = Number(argument('--records', '2000'));
const PASSES = Number(argument('--passes', '5'));
const SUBJECTS = argument('--subjects', 'sdk,memory,sqlite,store').split(',');
const CONCURRENCY = 8;
const asJson = process.argv.includes('--json');
// The store loop's observation: `status` (a status-sized answer, as the reconciler writes) or
// `none` (the release writes no observation), to tell the check log's cost from the rest.
const OBSERVATION = argument('--observation', 'status');

// `--src` (run under `node --import tsx`) loads src/ itself: a profile then names src files.
const fromSource = process.argv.includes('--src');
const entry = (name) =>
  fromSource
    ? new URL(`../../src/${name}.ts`, import.meta.url).href
    : pathToFileURL(join(dist, `${name}.js`)).href;
const { Pesakit, MemoryReferenceStore } = await import(entry('index'));
const { SqliteReferenceStore } = await import(entry('sqlite'));

const account = { email: 'bench@pesakit.tz', password: 'bench-pass-123' };
const loginPath = '/api/sandbox/login';
const origin = 'http://platform.invalid';

/** The records: merchant reference, control number, engine reference, amount. */
const records = Array.from({ length: RECORDS }, (_, index) => ({
  merchantReference: `OWN-${String(index).padStart(7, '0')}`,
  controlNumber: `99${String(index).padStart(10, '0')}`,
  reference: `ENG${String(index).padStart(9, '0')}`,
  amount: 1000 + index,
  msisdn: `25575${String(index % 10_000).padStart(4, '0')}998`,
}));
const byControlNumber = new Map(records.map((record) => [record.controlNumber, record]));
const created = new Date().toISOString();

/** The platform, answering at once: a login, or a `pending` status about the record asked for. */
const instantFetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const headers = { 'content-type': 'application/json' };
  if (url.endsWith(loginPath)) {
    const login = {
      token: 'own-share-token',
      token_type: 'Bearer',
      user: { id: 1, name: 'bench', email: account.email },
    };
    return new Response(JSON.stringify(login), { status: 200, headers });
  }
  const sent = init?.body ?? (input instanceof Request ? await input.text() : undefined);
  const body = JSON.parse(typeof sent === 'string' ? sent : new TextDecoder().decode(sent));
  const record = byControlNumber.get(body.ref_id);
  if (!record) return new Response('{"message":"Not found"}', { status: 404, headers });
  // The sandbox's answer, field for field (about 400 bytes).
  const answer = {
    message: 'Transaction status retrieved successfully',
    data: {
      controlNumber: record.controlNumber,
      reference: record.reference,
      external_reference: null,
      channel: 'mno',
      amount: record.amount,
      msisdn: record.msisdn,
      provider: 'vodacom',
      status: 'pending',
      transactionID: null,
      paid_amount: null,
      description: 'Payment',
      callback_url: null,
      created_at: created,
      updated_at: created,
    },
  };
  return new Response(JSON.stringify(answer), { status: 200, headers });
};

// Installed as the global fetch, not passed as `TransportOptions.fetch`: an injected fetch is
// sent through ky and a Request (kept for test harnesses), the global one directly — as in
// production and in reconciler-throughput.mjs.
globalThis.fetch = instantFetch;

const client = (store) =>
  new Pesakit({
    environment: 'sandbox',
    baseUrl: origin,
    credentials: { collection: account },
    ...(store ? { store } : {}),
  });

async function seedStore(store) {
  for (const record of records) {
    await store.createIntent({
      merchantReference: record.merchantReference,
      product: 'collection',
      flow: 'mno',
      amount: record.amount,
      msisdn: record.msisdn,
    });
    await store.attachReferences(record.merchantReference, {
      controlNumber: record.controlNumber,
      paymentReference: record.reference,
    });
    await store.transition(record.merchantReference, 'pending');
  }
}

// The main thread's CPU alone (the event loop), ns in /proc/self/task/<pid>/schedstat (Linux;
// 0 elsewhere): a store that runs its work on a thread of its own shows it in `cpu`, not here.
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
const mainCpu = existsSync(schedstat)
  ? () => Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1000
  : () => 0;

/** Runs `pass` once to warm up, then PASSES times; CPU and wall µs per record, each pass. */
async function measure(pass) {
  await pass();
  const runs = [];
  for (let i = 0; i < PASSES; i++) {
    const cpu = process.cpuUsage();
    const main = mainCpu();
    const started = performance.now();
    const checked = await pass();
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    runs.push({
      main: (mainCpu() - main) / checked,
      cpu: (used.user + used.system) / checked,
      user: used.user / checked,
      system: used.system / checked,
      wall: (wall * 1000) / checked,
    });
  }
  return runs;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function sdkLoop() {
  const pesakit = client();
  return measure(async () => {
    let next = 0;
    const worker = async () => {
      while (next < records.length) {
        const { data } = await pesakit.collection.status(records[next++].controlNumber);
        if (data.status !== 'pending') throw new Error(`sdk: ${JSON.stringify(data)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return records.length;
  });
}

async function reconcilerOver(store) {
  const reconciler = client(store).createReconciler({
    concurrency: CONCURRENCY,
    ratePerSecond: 1e6,
  });
  try {
    return await measure(async () => {
      const summary = await reconciler.runOnce({ force: true });
      if (summary.checked !== records.length || summary.errors !== 0) {
        throw new Error(`reconciler: ${JSON.stringify(summary)}`);
      }
      return summary.checked;
    });
  } finally {
    await reconciler.close();
  }
}

/** A SQLite file as the benchmark has it: seeded, closed, reopened by path (WAL, FULL). */
async function seededSqliteFile(directory) {
  const file = join(directory, 'own-share.sqlite');
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = OFF');
  const seeding = await SqliteReferenceStore.open(database);
  await seedStore(seeding);
  await seeding.close();
  database.close();
  return file;
}

/** The store alone: lease a page, release it with a status-sized observation; timed apart. */
async function storeLoop(store) {
  const observation = {
    refId: records[0].controlNumber,
    at: new Date(),
    data: JSON.parse(
      JSON.stringify(
        (
          await (
            await instantFetch(`${origin}/s`, {
              body: JSON.stringify({ ref_id: records[0].controlNumber }),
            })
          ).json()
        ).data,
      ),
    ),
  };
  const parts = { lease: [], release: [] };
  const pass = async (record) => {
    const passStartedAt = new Date();
    const took = { lease: { cpu: 0, wall: 0 }, release: { cpu: 0, wall: 0 } };
    const timed = async (part, work) => {
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = await work();
      const used = process.cpuUsage(cpu);
      took[part].cpu += used.user + used.system;
      took[part].wall += (performance.now() - started) * 1000;
      return result;
    };
    let checked = 0;
    for (;;) {
      const page = await timed('lease', () =>
        store.leaseDue({
          limit: 200,
          leaseMs: 60_000,
          force: true,
          passStartedAt,
          observations: false,
        }),
      );
      if (page.length === 0) break;
      const now = new Date();
      await timed('release', () =>
        store.releaseLeases(
          page.map((leased) => ({
            merchantReference: leased.record.merchantReference,
            token: leased.token,
            nextCheckAt: new Date(now.getTime() + 60_000),
            checkedAt: now,
            ...(OBSERVATION === 'none' ? {} : { observation: { ...observation, at: now } }),
          })),
        ),
      );
      checked += page.length;
      if (page.length < 200) break;
    }
    if (record) {
      for (const part of ['lease', 'release']) {
        parts[part].push({ cpu: took[part].cpu / checked, wall: took[part].wall / checked });
      }
    }
    return checked;
  };
  await pass(false);
  for (let i = 0; i < PASSES; i++) await pass(true);
  return parts;
}

const results = {};
const directory = mkdtempSync(join(tmpdir(), 'pesakit-own-share-'));
try {
  if (SUBJECTS.includes('sdk')) results.sdk = await sdkLoop();
  if (SUBJECTS.includes('memory')) {
    const store = new MemoryReferenceStore();
    await seedStore(store);
    results.memory = await reconcilerOver(store);
    await store.close();
  }
  if (SUBJECTS.includes('sqlite') || SUBJECTS.includes('store')) {
    const file = await seededSqliteFile(directory);
    if (SUBJECTS.includes('sqlite')) {
      const store = await SqliteReferenceStore.open(file);
      results.sqlite = await reconcilerOver(store);
      await store.close();
    }
    if (SUBJECTS.includes('store')) {
      const store = await SqliteReferenceStore.open(file);
      const parts = await storeLoop(store);
      results.lease = parts.lease;
      results.release = parts.release;
      await store.close();
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}

const summary = Object.fromEntries(
  Object.entries(results).map(([name, runs]) => [
    name,
    {
      cpu: median(runs.map((run) => run.cpu)),
      ...(runs[0].main === undefined ? {} : { main: median(runs.map((run) => run.main)) }),
      ...(runs[0].user === undefined
        ? {}
        : {
            user: median(runs.map((run) => run.user)),
            system: median(runs.map((run) => run.system)),
          }),
      wall: median(runs.map((run) => run.wall)),
      cpuRange: [Math.min(...runs.map((run) => run.cpu)), Math.max(...runs.map((run) => run.cpu))],
    },
  ]),
);
if (summary.sdk) {
  for (const name of ['memory', 'sqlite']) {
    if (summary[name]) summary[name].ownShare = summary[name].cpu - summary.sdk.cpu;
  }
}
if (asJson) {
  console.log(
    JSON.stringify({
      dist,
      records: RECORDS,
      passes: PASSES,
      load: (await import('node:os')).loadavg()[0],
      summary,
    }),
  );
} else {
  console.log(`own share: ${RECORDS} records, ${PASSES} passes, dist ${dist}`);
  for (const [name, s] of Object.entries(summary)) {
    const f = (value) => value.toFixed(0).padStart(5);
    console.log(
      `${name.padEnd(8)} cpu ${f(s.cpu)} µs/record (${f(s.cpuRange[0])}–${f(s.cpuRange[1])})` +
        `${s.user === undefined ? '' : ` user ${f(s.user)} sys ${f(s.system)}`}` +
        `${s.main === undefined ? '' : ` main ${f(s.main)}`}  wall ${f(s.wall)}` +
        `${s.ownShare === undefined ? '' : `  own share ${f(s.ownShare)}`}`,
    );
  }
}
