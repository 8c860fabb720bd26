// Two builds of pesakit in ONE process, alternated call by call: the most sensitive way to see
// what a change did to the money call on a shared machine (separate runs of sdk-overhead.mjs
// swing more than a 10 % change). Subjects, in a rotating order, forward and backward by turns:
// raw fetch; raw fetch plus the two durable writes by hand (as in sdk-overhead.mjs);
// `initiateMno` with the memory store and with the SQLite store, for the old build and for the
// new one. Printed per subject: the client CPU per call (process.cpuUsage, median over the
// rounds, user apart) and the median latency; then the ratios (median of per-round ratios). The
// server is sdk-overhead.mjs --serve, in its own process.
//   BENCH_SDK_DIST_OLD=<dist/ of the old build>  (required; without it there is nothing to compare)
//   BENCH_SDK_DIST=<dist/ of the new build>      (default: this package's dist/)
// `--quick` only proves that it runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const oldDist = process.env.BENCH_SDK_DIST_OLD;
if (oldDist === undefined) {
  console.log(
    'sdk-overhead-ab: set BENCH_SDK_DIST_OLD=<dist/ of another build> to compare two builds.',
  );
  process.exit(0);
}
const newDist = process.env.BENCH_SDK_DIST ?? fileURLToPath(new URL('../dist', import.meta.url));
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 2 : Number(process.env.BENCH_SDK_ROUNDS ?? 5);
const BLOCK = quick ? 10 : Number(process.env.BENCH_SDK_CALLS ?? 150);
const WARMUP = quick ? 10 : 200;
const load = (dist, file) => import(pathToFileURL(join(dist, file)).href);
const builds = {
  old: { sdk: await load(oldDist, 'index.js'), sql: await load(oldDist, 'sqlite.js') },
  new: { sdk: await load(newDist, 'index.js'), sql: await load(newDist, 'sqlite.js') },
};
const serverFile = fileURLToPath(new URL('./sdk-overhead.mjs', import.meta.url));
const child = spawn(process.execPath, [serverFile, '--serve'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /listening on (\d+)/.exec(out);
    if (match) resolve(Number(match[1]));
  });
  child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
});
const baseUrl = `http://127.0.0.1:${port}`;
const directory = mkdtempSync(join(tmpdir(), 'pesakit-sdk-ab-'));
const credentials = { collection: { email: 'bench@example.co.tz', password: 'secret-pass' } };
const stores = [];
const client = async (build, sqlite) => {
  const store = sqlite
    ? await build.sql.SqliteReferenceStore.open(join(directory, `${stores.length}.sqlite`))
    : undefined;
  if (store) stores.push(store);
  return new build.sdk.Pesakit({
    baseUrl,
    environment: 'sandbox',
    credentials,
    ...(store ? { store } : {}),
  });
};
// The writes by hand, as sdk-overhead.mjs does them (the store's schema and pragmas).
const byHandFile = join(directory, 'by-hand.sqlite');
await (await builds.new.sql.SqliteReferenceStore.open(byHandFile)).close();
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
const payment = { amount: 15000, msisdn: '255754123456' };
let sequence = 0;
const rawPost = async (reference) => {
  const response = await fetch(`${baseUrl}/api/sandbox/initiate-payment/mno/`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer bench-token-0123456789',
    },
    body: JSON.stringify({
      ...payment,
      callback_url: `https://shop.example.co.tz/paid?pesakit_ref=${reference}`,
    }),
  });
  return JSON.parse(await response.text());
};
const initiate = (pesakit) => () =>
  pesakit.collection.initiateMno({ ...payment, callback_url: 'https://shop.example.co.tz/paid' });
const subjects = {
  raw: () => rawPost(`bench-${++sequence}`),
  byHand: async () => {
    const reference = `bench-${++sequence}`;
    const now = new Date().toISOString();
    writeIntent.run(reference, payment.amount * 100, payment.msisdn, now, now);
    const answer = await rawPost(reference);
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
  },
  oldMemory: initiate(await client(builds.old, false)),
  newMemory: initiate(await client(builds.new, false)),
  oldSqlite: initiate(await client(builds.old, true)),
  newSqlite: initiate(await client(builds.new, true)),
};
const names = Object.keys(subjects);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  for (let i = 0; i < WARMUP; i++) for (const name of names) await subjects[name]();
  const rounds = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const sums = Object.fromEntries(
      names.map((name) => [name, { cpu: 0, user: 0, latencies: [] }]),
    );
    for (let i = 0; i < BLOCK; i++) {
      for (let j = 0; j < names.length; j++) {
        // Forward on even turns, backward on odd ones, so that each build's subject follows the
        // other's as often as it precedes it. In one fixed cyclic order the new build always
        // ran right after the old one (the same code paths just warmed): an old-against-old
        // run read "new / old" 0.93 on the memory store (stop 17).
        const k = (i + j) % names.length;
        const name = names[i % 2 === 0 ? k : names.length - 1 - k];
        const cpuBefore = process.cpuUsage();
        const start = performance.now();
        await subjects[name]();
        sums[name].latencies.push(performance.now() - start);
        const cpu = process.cpuUsage(cpuBefore);
        sums[name].cpu += cpu.user + cpu.system;
        sums[name].user += cpu.user;
      }
    }
    for (const name of names) {
      const { cpu, user, latencies } = sums[name];
      rounds[name].push({ cpu: cpu / BLOCK, user: user / BLOCK, latency: median(latencies) });
    }
  }
  console.log(
    `sdk-overhead-ab: ${ROUNDS} rounds of ${BLOCK} calls per subject, alternated call by call ` +
      `(load average ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')})`,
  );
  for (const name of names) {
    const of = (key) => median(rounds[name].map((r) => r[key]));
    console.log(
      `${name.padEnd(10)} CPU/call ${of('cpu').toFixed(0).padStart(5)} µs (user ${of('user').toFixed(0)})` +
        `  latency ${(of('latency') * 1000).toFixed(0)} µs`,
    );
  }
  const ratio = (a, b, key) =>
    median(rounds[a].map((r, i) => r[key] / rounds[b][i][key])).toFixed(2);
  for (const [a, b] of [
    ['oldMemory', 'raw'],
    ['newMemory', 'raw'],
    ['oldSqlite', 'byHand'],
    ['newSqlite', 'byHand'],
    ['newMemory', 'oldMemory'],
    ['newSqlite', 'oldSqlite'],
  ]) {
    console.log(`${a} / ${b}: CPU ${ratio(a, b, 'cpu')}x, latency ${ratio(a, b, 'latency')}x`);
  }
} finally {
  for (const store of stores) await store.close();
  byHand.close();
  child.kill('SIGTERM');
  rmSync(directory, { recursive: true, force: true });
}
