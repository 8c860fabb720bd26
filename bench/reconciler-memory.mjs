// Resident memory of a reconciler process over a large SQLite store: N due records (100,000
// by default), all pulled in one `runOnce({ force: true })`. Records are streamed from the
// store in keyset pages, so memory should stay flat however many there are; the target
// is a peak RSS under 200 MB. The sandbox runs in its own process and the store is filled by
// this process; the reconciler runs in a third, which measures only itself. Its baseline is
// its own RSS after start-up (imports, store opened), before the pass.
//
// The records are pending collections the sandbox really holds (numbers ending 998: never
// settled), so every pull is a real round trip answered `pending`, as in production. The
// sandbox creates them all; the store gets the first through the SDK and the rest as copies
// of that row in one transaction (seedManyPendingCollections). The sandbox keeps 10,000
// collections by default, so this benchmark starts its own (`--sandbox`: the same sandbox,
// through `createSandbox` from pesakit/sandbox, with room for N).
//
// The reconciler process runs twice over the same store: with Node's default heap settings (a
// merchant's own worker, as it is), then with the old-space limit docs/reconciler.md
// recommends for a reconcile process (HEAP_FLAGS). The pass's live data is small (about 20 MB
// survive a full GC); with the default settings V8 lets the old space grow to about four times
// what survived its last full collection before it collects again, so the peak is mostly
// garbage V8 has not collected yet, and a limit makes it collect sooner.
// BENCH_RECONCILER_MEMORY_HEAP=default or =limited runs only one of the two.
//
//   node bench/reconciler-memory.mjs              # 100,000 records (several minutes)
//   node bench/reconciler-memory.mjs --quick      # 500 records (CI: proves it runs)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnUntilListening } from './lib/sandbox-process.mjs';
import { account, seed, seedManyPendingCollections } from './lib/seed-store.mjs';
import { printTable } from './lib/stats.mjs';

const TARGET_MB = 200;
/** The heap limit docs/reconciler.md recommends for a process that runs the reconciler. */
const HEAP_FLAGS = ['--max-old-space-size=128'];
const self = fileURLToPath(import.meta.url);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

if (process.argv[2] === '--sandbox') {
  // The sandbox's process: room for every record, the bench account seeded.
  const { createSandbox } = await import('pesakit/sandbox');
  const sandbox = await createSandbox({ seed, recordLimit: Number(process.argv[3]) });
  process.once('SIGTERM', () => sandbox.close().then(() => process.exit(0)));
  const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`sandbox listening on ${url}\n`);
} else if (process.argv[2] === '--worker') {
  // The measured process: open the store, sample RSS, run one pass over everything.
  const [, , , file, url] = process.argv;
  const { Pesakit } = await import('pesakit');
  const { SqliteReferenceStore } = await import('pesakit/sqlite');
  const store = await SqliteReferenceStore.open(file);
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: { collection: account },
    store,
  });
  const reconciler = pesakit.createReconciler({ concurrency: 16, ratePerSecond: 1e6 });
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  // What the RSS was made of at its peak: V8's heap (live data and garbage not yet collected)
  // versus memory outside it (buffers, SQLite, the allocator).
  let atPeak = process.memoryUsage();
  const sample = () => {
    const usage = process.memoryUsage();
    if (usage.rss > peak) {
      peak = usage.rss;
      atPeak = usage;
    }
  };
  const timer = setInterval(sample, 25);
  const started = performance.now();
  const summary = await reconciler.runOnce({ force: true });
  const durationMs = performance.now() - started;
  clearInterval(timer);
  sample();
  // What is still referenced once the pass is over: retention (a leak) versus garbage V8 had
  // not collected yet (which RSS peaks also count).
  globalThis.gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  await reconciler.close();
  await store.close();
  process.stdout.write(
    `${JSON.stringify({ baseline, peak, atPeak, heapAfter, durationMs, summary })}\n`,
  );
  process.exit(0);
}

if (!['--sandbox', '--worker'].includes(process.argv[2] ?? '')) await main();

async function main() {
  const quick = process.argv.includes('--quick');
  const RECORDS = Number(process.env.BENCH_RECONCILER_MEMORY_RECORDS ?? (quick ? 500 : 100_000));

  const sandbox = await startSandbox(RECORDS + 100);
  const file = join(sandbox.directory, 'memory.sqlite');
  try {
    const seedStarted = performance.now();
    await seedManyPendingCollections(file, sandbox.url, RECORDS);
    const seedMs = performance.now() - seedStarted;
    const heap = process.env.BENCH_RECONCILER_MEMORY_HEAP ?? 'both';
    const settings = [
      ...(heap === 'limited' ? [] : [{ name: "Node's defaults", flags: [] }]),
      ...(heap === 'default' ? [] : [{ name: `node ${HEAP_FLAGS.join(' ')}`, flags: HEAP_FLAGS }]),
    ];
    const runs = [];
    for (const setting of settings) {
      runs.push({ setting, ...(await runWorker(file, sandbox.url, setting.flags, RECORDS)) });
    }
    console.log(
      `reconciler memory: one forced pass over ${RECORDS} due records in SQLite ` +
        `(seeded in ${(seedMs / 1000).toFixed(0)} s), sandbox in its own process`,
    );
    printTable(
      [
        'records',
        'heap settings',
        'RSS before pass',
        'peak RSS',
        'heap at peak (used/total)',
        'heap after pass + GC',
        'pass',
        'records/s',
      ],
      runs.map(({ setting, baseline, peak, atPeak, heapAfter, durationMs }) => [
        String(RECORDS),
        setting.name,
        mb(baseline),
        mb(peak),
        `${mb(atPeak.heapUsed)} / ${mb(atPeak.heapTotal)}`,
        mb(heapAfter),
        `${(durationMs / 1000).toFixed(1)} s`,
        (RECORDS / (durationMs / 1000)).toFixed(0),
      ]),
    );
    for (const { setting, peak } of runs) {
      console.log(
        `verdict: peak RSS ${mb(peak)} over ${RECORDS} due records (${setting.name}; target < ${TARGET_MB} MB): ` +
          `${peak < TARGET_MB * 1024 * 1024 ? 'within the target' : 'over the target'}` +
          `${quick ? ' (quick mode: too few records to judge)' : ''}`,
      );
    }
  } finally {
    await sandbox.close();
    rmSync(sandbox.directory, { recursive: true, force: true });
  }
}

/** Runs the measured reconciler process (this file, `--worker`) with `flags`; its figures. */
async function runWorker(file, url, flags, records) {
  const output = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', ...flags, self, '--worker', file, url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`the reconciler process exited ${code}`)),
    );
  });
  const result = JSON.parse(output.trim().split('\n').at(-1));
  const { summary } = result;
  if (summary.checked !== records || summary.pending !== records) {
    throw new Error(`expected ${records} checked and pending: ${JSON.stringify(summary)}`);
  }
  return result;
}

/** The sandbox in its own process (this file, `--sandbox`), with room for `recordLimit`. */
async function startSandbox(recordLimit) {
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-'));
  const sandbox = await spawnUntilListening([self, '--sandbox', String(recordLimit)]);
  return { ...sandbox, directory };
}
