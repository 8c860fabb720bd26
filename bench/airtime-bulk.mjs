// Bulk airtime against a bare loop of `airtime.purchase`, in the same run, same concurrency.
// The sandbox runs in its own process. Both subjects buy airtime for the same N distinct
// numbers, each through a fresh client on a fresh SQLite store: the baseline is a loop of
// `pesakit.airtime.purchase` calls (the write-ahead record and the send, nothing else); the
// subject is `pesakit.airtime.bulkPurchase(xlsxBytes, { batchId })`, which also reads the
// workbook, checks every row, looks each row up for a resume, checks the wallet, and emits
// row/progress events. The sandbox is reset to its seed before each pass (its airtime record
// limit is 10,000). Printed, never asserted.
//
//   node bench/airtime-bulk.mjs            # 5,000 rows, 2 rounds
//   node bench/airtime-bulk.mjs --quick    # 200 rows, 1 round (CI: proves it runs)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { Pesakit } from 'pesakit';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { startSandboxProcess } from './lib/sandbox-process.mjs';
import { printTable } from './lib/stats.mjs';

const quick = process.argv.includes('--quick');
const ROWS = Number(process.env.BENCH_AIRTIME_BULK_ROWS ?? (quick ? 200 : 5000));
const ROUNDS = quick ? 1 : 2;
const CONCURRENCY = 8;
const AMOUNT = 100;

const account = { email: 'bulk-bench@pesakit.tz', password: 'bench-pass-123' };
const seed = {
  accounts: [{ product: 'airtime', ...account, status: 'active', balance: 10_000_000 }],
};
const rows = Array.from({ length: ROWS }, (_, index) => ({
  // Ending in 1, never in 999 (the sandbox's failing test numbers).
  msisdn: `25575${String(index + 1).padStart(6, '0')}1`,
  amount: AMOUNT,
}));

async function workbook() {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('airtime');
  sheet.addRow(['msisdn', 'amount']);
  for (const row of rows) sheet.addRow([row.msisdn, row.amount]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const sandbox = await startSandboxProcess(seed);
let pass = 0;
try {
  const file = await workbook();
  const reset = () =>
    fetch(`${sandbox.url}/api/sandbox/_control/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).then((response) => {
      if (!response.ok) throw new Error(`reset answered ${response.status}`);
    });
  // A fresh sandbox state, store and client per pass; the login is made before the clock runs.
  const fresh = async () => {
    await reset();
    const store = await SqliteReferenceStore.open(join(sandbox.directory, `pass-${pass++}.sqlite`));
    const pesakit = new Pesakit({
      environment: 'sandbox',
      baseUrl: sandbox.url,
      credentials: { airtime: account },
      store,
    });
    await pesakit.airtime.login();
    return { pesakit, store };
  };

  const loopPass = async () => {
    const { pesakit, store } = await fresh();
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++];
        const sale = await pesakit.airtime.purchase(row);
        if (sale.status !== 'success') throw new Error(`loop: ${JSON.stringify(sale)}`);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const elapsed = performance.now() - started;
    await store.close();
    return { rows: rows.length, ms: elapsed };
  };

  const bulkPass = async () => {
    const { pesakit, store } = await fresh();
    const started = performance.now();
    const result = await pesakit.airtime.bulkPurchase(file, {
      batchId: `bench-${pass}`,
      concurrency: CONCURRENCY,
    });
    const elapsed = performance.now() - started;
    if (result.totals.succeeded !== rows.length) {
      throw new Error(`bulk: ${JSON.stringify(result.totals)}`);
    }
    await store.close();
    return { rows: rows.length, ms: elapsed };
  };

  // Warm-up (JIT, exceljs loading, connection pools), then rounds that alternate the order.
  await loopPass();
  await bulkPass();
  const results = { loop: [], bulk: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['loop', 'bulk'] : ['bulk', 'loop'];
    for (const name of order) {
      results[name].push(await (name === 'loop' ? loopPass() : bulkPass()));
    }
  }

  const rate = (runs) =>
    runs.reduce((sum, run) => sum + run.rows, 0) /
    (runs.reduce((sum, run) => sum + run.ms, 0) / 1000);
  const loop = rate(results.loop);
  const bulk = rate(results.bulk);
  console.log(
    `airtime bulk: ${ROWS} rows, concurrency ${CONCURRENCY}, ${ROUNDS} round(s), SQLite store, ` +
      'sandbox in its own process',
  );
  printTable(
    ['subject', 'rows/s', 'ratio'],
    [
      ['loop of airtime.purchase', loop.toFixed(0), '1.00'],
      ['airtime.bulkPurchase (xlsx)', bulk.toFixed(0), (bulk / loop).toFixed(2)],
    ],
  );
  console.log(
    `verdict: bulkPurchase at ${(bulk / loop).toFixed(2)}x of a bare purchase loop` +
      `${quick ? ' (quick mode: too small to judge)' : ''}`,
  );
} finally {
  await sandbox.close();
  rmSync(sandbox.directory, { recursive: true, force: true });
}
