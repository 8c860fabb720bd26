// The reconciler against the sandbox with a SQLite store: records checked a second, and memory
// over 100,000 due records.
// The records are pending collections the sandbox really holds (it runs in its own process and
// settles nothing), so every pull is a real round trip answered `pending`. The sandbox creates
// them all; the store gets the first through the SDK and the rest as copies of that row, each
// with its own references, in one transaction (set-up, not the measurement).
// The measured reconciler runs in a process of its own (this file, `--pass`) with the heap limit
// docs/reconciler.md recommends (--max-old-space-size=128): one `runOnce({ force: true })`.
// - throughput: records/s over the large store; baseline, same run: raw fetch status pulls of
//   the same records at the same concurrency (no store, no decisions). Floor ≥ 1,000 records/s.
// - memory: peak RSS over the large pass (floor < 200 MB); the heap that survives a full GC
//   after the pass, large store against small (10,000): flat means ≤ 1.25×.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import {
  account,
  collectionPaths,
  collectionToken,
  pool,
  quick,
  rawPost,
  report,
  startSandbox,
} from './lib/common.mjs';

const LARGE = Number(process.env.BENCH_RECONCILER_RECORDS ?? (quick ? 500 : 100_000));
const SMALL = quick ? 100 : 10_000;
/** The figure docs/benchmarks.md publishes for this machine (records/s); updated with the table. */
const PUBLISHED_RATE = 575;
const CONCURRENCY = 16;
const HEAP_FLAGS = ['--max-old-space-size=128'];
const mb = (bytes) => bytes / 1024 / 1024;

if (process.argv[2] === '--pass') await pass(process.argv[3], process.argv[4]);
else await main();

/** The measured process: open the store, one forced pass over everything, print the figures. */
async function pass(file, url) {
  const { Pesakit } = await import('pesakit');
  const { SqliteReferenceStore } = await import('pesakit/sqlite');
  const store = await SqliteReferenceStore.open(file);
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: { collection: account },
    store,
  });
  const reconciler = pesakit.createReconciler({ concurrency: CONCURRENCY, ratePerSecond: 1e6 });
  globalThis.gc();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const started = performance.now();
  const summary = await reconciler.runOnce({ force: true });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  globalThis.gc();
  const heapAfter = process.memoryUsage().heapUsed;
  await reconciler.close();
  await store.close();
  console.log(JSON.stringify({ before, peak, heapAfter, seconds, checked: summary.checked }));
  process.exit(0);
}

async function main() {
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-reconciler-'));
  const sandbox = await startSandbox(
    { accounts: [{ product: 'collection', ...account }] },
    LARGE + 100,
  );
  try {
    const created = await createInSandbox(sandbox.url, LARGE);
    const smallFile = await seedStore(
      join(directory, 'small.sqlite'),
      sandbox.url,
      created.slice(0, SMALL),
    );
    const largeFile = await seedStore(join(directory, 'large.sqlite'), sandbox.url, created);

    const token = await collectionToken(sandbox.url);
    const sample = created.slice(0, SMALL);
    const started = performance.now();
    await pool(sample.length, CONCURRENCY, async (index) => {
      const answer = await rawPost(sandbox.url + collectionPaths.status, token, {
        ref_id: sample[index].controlNumber,
      });
      if (answer?.data?.status !== 'pending')
        throw new Error(`raw pull: ${JSON.stringify(answer)}`);
    });
    const rawRate = sample.length / ((performance.now() - started) / 1000);

    const small = await runPass(smallFile, sandbox.url, SMALL);
    const large = await runPass(largeFile, sandbox.url, LARGE);
    const rate = LARGE / large.seconds;
    report({
      benchmark: `Reconciler, SQLite store, sandbox, concurrency ${CONCURRENCY}`,
      figure: `${rate.toFixed(0)} records/s`,
      baseline: `raw fetch ${rawRate.toFixed(0)} pulls/s`,
      ratio: rate / rawRate,
      // A regression guard against the published figure, not a product floor: in production the
      // platform's latency and ratePerSecond bound a pass long before this.
      floor: `≥ ${Math.round(PUBLISHED_RATE * 0.9)}/s (${PUBLISHED_RATE}/s less 10 %)`,
      met: rate >= PUBLISHED_RATE * 0.9,
    });
    report({
      benchmark: `Reconciler peak RSS, ${LARGE.toLocaleString('en')} due records, ${HEAP_FLAGS[0]}`,
      figure: `${mb(large.peak).toFixed(0)} MB`,
      baseline: `RSS before the pass ${mb(large.before).toFixed(0)} MB`,
      ratio: large.peak / large.before,
      floor: '< 200 MB',
      met: mb(large.peak) < 200,
    });
    report({
      benchmark: `Reconciler heap after the pass + GC, ${LARGE.toLocaleString('en')} records`,
      figure: `${mb(large.heapAfter).toFixed(1)} MB`,
      baseline: `${SMALL.toLocaleString('en')} records ${mb(small.heapAfter).toFixed(1)} MB`,
      ratio: large.heapAfter / small.heapAfter,
      floor: 'flat (≤ 1.25×)',
      met: large.heapAfter / small.heapAfter <= 1.25,
    });
  } finally {
    await sandbox.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** `count` pending collections created in the sandbox with plain fetch; each one's answer. */
async function createInSandbox(url, count) {
  const token = await collectionToken(url);
  const created = new Array(count);
  await pool(count, 32, async (index) => {
    const amount = 1000 + (index % 50_000);
    const msisdn = `25575${String(index % 10_000).padStart(4, '0')}998`;
    const body = await rawPost(url + collectionPaths.initiateMno, token, { amount, msisdn });
    if (!body.controlNumber) throw new Error(`the sandbox refused: ${JSON.stringify(body)}`);
    created[index] = { amount, msisdn, ...body };
  });
  return created;
}

/**
 * A store holding `records` (sandbox answers) as pending collections: the first written by the
 * SDK itself, the rest copies of its row with their own merchant reference, references and
 * amount, in one transaction.
 */
async function seedStore(file, url, records) {
  const { Pesakit } = await import('pesakit');
  const { SqliteReferenceStore } = await import('pesakit/sqlite');
  const store = await SqliteReferenceStore.open(file);
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: { collection: account },
    store,
  });
  await pesakit.collection.initiateMno({ amount: 999, msisdn: '255754000998' });
  await store.close();
  const database = new Database(file);
  const template = database.prepare('select * from pesakit_transactions').get();
  const columns = Object.keys(template);
  const insert = database.prepare(
    `insert into pesakit_transactions (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  database.transaction(() => {
    records.slice(1).forEach((record, index) => {
      insert.run({
        ...template,
        merchant_reference: `BENCH-${String(index).padStart(7, '0')}`,
        amount_cents: record.amount * 100,
        msisdn: record.msisdn,
        control_number: record.controlNumber,
        payment_reference: record.reference,
        last_payload: JSON.stringify(record),
      });
    });
  })();
  database.close();
  return file;
}

/** One measured pass (this file, `--pass`) in its own process with the heap limit. */
async function runPass(file, url, records) {
  const output = await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', ...HEAP_FLAGS, fileURLToPath(import.meta.url), '--pass', file, url],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`pass exited ${code}`)),
    );
  });
  const result = JSON.parse(output.trim().split('\n').at(-1));
  if (result.checked !== records) throw new Error(`checked ${result.checked} of ${records}`);
  return result;
}
