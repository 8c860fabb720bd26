// The SQLite store's reconciler writes alone, two builds in one process, alternated pass by
// pass: each build seeds its own file (N pending collections, reopened by path: WAL, FULL), then
// every pass leases the file in pages of 200 and releases each page with a status-sized
// observation. Prints CPU and wall µs per record for the lease and the release of each build,
// and the B/A ratio of lease + release CPU per adjacent pair — what holds on a loaded machine.
//
//   N=2000 P=8 W=0 node bench/lib/reconciler-store-ab.mjs <dist A> <dist B>
//
// W passes first (unmeasured) grow each record's check log (W=14: logs at their 20 entries).
// `main` is the main thread's CPU alone (/proc/self/task/<pid>/schedstat, ns; Linux): a build
// that runs the store's work on a thread of its own shows it in `cpu` (the process) but not there.
// A measuring tool for bench notes; never part of `bench/run.mjs`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

const [distA, distB] = process.argv.slice(2, 4);
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
/** The main thread's CPU so far, µs (0 without /proc). */
const mainCpu = existsSync(schedstat)
  ? () => Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1000
  : () => 0;
const RECORDS = Number(process.env.N ?? 2000);
const PASSES = Number(process.env.P ?? 8);
const WARM = Number(process.env.W ?? 3);
const load = async (d) =>
  (await import(pathToFileURL(join(d, 'sqlite.js')).href)).SqliteReferenceStore;
const stores = { A: await load(distA), B: await load(distB) };
const dir = mkdtempSync(join(tmpdir(), 'ab-store-'));
const obs = {
  refId: '990000000001',
  at: new Date(),
  data: {
    controlNumber: '990000000001',
    reference: 'ENG000000001',
    external_reference: null,
    channel: 'mno',
    amount: 1234,
    msisdn: '255750001998',
    provider: 'vodacom',
    status: 'pending',
    transactionID: null,
    paid_amount: null,
    description: 'Payment',
    callback_url: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  },
};
async function open(name) {
  const file = join(dir, `${name}.sqlite`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const s = await stores[name].open(db);
  for (let i = 0; i < RECORDS; i++) {
    const ref = `OWN-${String(i).padStart(7, '0')}`;
    await s.createIntent({
      merchantReference: ref,
      product: 'collection',
      flow: 'mno',
      amount: 1000 + i,
      msisdn: '255750001998',
    });
    await s.attachReferences(ref, {
      controlNumber: `99${String(i).padStart(10, '0')}`,
      paymentReference: `ENG${String(i).padStart(9, '0')}`,
    });
    await s.transition(ref, 'pending');
  }
  await s.close();
  db.close();
  return stores[name].open(file);
}
const A = await open('A'),
  B = await open('B');
async function pass(store) {
  const passStartedAt = new Date();
  const t = { lease: 0, release: 0, leaseWall: 0, releaseWall: 0, leaseMain: 0, releaseMain: 0 };
  let n = 0;
  for (;;) {
    let c = process.cpuUsage(),
      m = mainCpu(),
      w = performance.now();
    const page = await store.leaseDue({
      limit: 200,
      leaseMs: 60000,
      force: true,
      passStartedAt,
      observations: false,
    });
    let u = process.cpuUsage(c);
    t.leaseMain += mainCpu() - m;
    t.lease += u.user + u.system;
    t.leaseWall += (performance.now() - w) * 1000;
    if (!page.length) break;
    const now = new Date();
    c = process.cpuUsage();
    m = mainCpu();
    w = performance.now();
    await store.releaseLeases(
      page.map((l) => ({
        merchantReference: l.record.merchantReference,
        token: l.token,
        nextCheckAt: new Date(now.getTime() + 60000),
        checkedAt: now,
        observation: { ...obs, at: now },
      })),
    );
    u = process.cpuUsage(c);
    t.releaseMain += mainCpu() - m;
    t.release += u.user + u.system;
    t.releaseWall += (performance.now() - w) * 1000;
    n += page.length;
    if (page.length < 200) break;
  }
  return {
    lease: t.lease / n,
    release: t.release / n,
    leaseWall: t.leaseWall / n,
    releaseWall: t.releaseWall / n,
    leaseMain: t.leaseMain / n,
    releaseMain: t.releaseMain / n,
  };
}
for (let i = 0; i < WARM; i++) {
  await pass(A);
  await pass(B);
}
const res = { A: [], B: [] };
for (let i = 0; i < PASSES; i++) {
  const order = i % 2 ? ['B', 'A'] : ['A', 'B'];
  for (const k of order) res[k].push(await pass(k === 'A' ? A : B));
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
for (const k of ['A', 'B']) {
  const r = res[k];
  console.log(
    `${k} lease cpu ${med(r.map((x) => x.lease)).toFixed(0)} main ${med(r.map((x) => x.leaseMain)).toFixed(0)} wall ${med(r.map((x) => x.leaseWall)).toFixed(0)} | release cpu ${med(r.map((x) => x.release)).toFixed(0)} main ${med(r.map((x) => x.releaseMain)).toFixed(0)} wall ${med(r.map((x) => x.releaseWall)).toFixed(0)}  (log ${WARM + PASSES} entries at end)`,
  );
}
const ratios = res.A.map((a, i) => (res.B[i].lease + res.B[i].release) / (a.lease + a.release));
console.log(
  `B/A lease+release CPU per pair: ${ratios.map((x) => x.toFixed(2)).join(' ')} median ${med(ratios).toFixed(2)}`,
);
const mainRatios = res.A.map(
  (a, i) => (res.B[i].leaseMain + res.B[i].releaseMain) / (a.leaseMain + a.releaseMain),
);
console.log(
  `B/A lease+release main-thread CPU per pair: ${mainRatios.map((x) => x.toFixed(2)).join(' ')} median ${med(mainRatios).toFixed(2)}`,
);
await A.close();
await B.close();
rmSync(dir, { recursive: true, force: true });
