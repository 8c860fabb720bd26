// Each bulk product against a bare loop of its single call, same run, same concurrency, the
// sandbox in its own process: `airtime.bulkPurchase` against `airtime.purchase`, then
// `disbursement.bulkPay` against `disbursement.pay`. Both sides send to the same distinct numbers,
// each pass through a fresh client on a fresh SQLite store: the baseline is the loop (the
// write-ahead record and the send, nothing else); the subject also checks every row, reads the
// store for an earlier run of the batch, checks the wallet (payouts: reserve each row's float
// with its intent) and emits row events. The sandbox is reset to its seed before each pass.
// Passes alternate; figures are the median rows/s of five rounds (a pass lasts seconds, and the
// disk's fsync time swings).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pesakit } from 'pesakit';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { account, control, median, pool, quick, report, startSandbox } from './lib/common.mjs';

const ROWS = quick ? 100 : 2000;
const ROUNDS = quick ? 1 : 5;
const CONCURRENCY = 8;
const rows = Array.from({ length: ROWS }, (_, index) => ({
  // Ending in 1: never one of the sandbox's failing test numbers.
  msisdn: `25575${String(index + 1).padStart(6, '0')}1`,
  amount: 100,
  name: `Staff ${index + 1}`,
}));

const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-bulk-'));
const sandbox = await startSandbox({
  accounts: [
    { product: 'airtime', ...account, status: 'active', balance: 10_000_000 },
    { product: 'disbursement', ...account, status: 'active', balance: 10_000_000 },
  ],
});
let passes = 0;

/** A fresh sandbox state, store and logged-in client; the login is made before the clock runs. */
async function fresh() {
  await control(sandbox.url, 'reset');
  const store = await SqliteReferenceStore.open(join(directory, `pass-${++passes}.sqlite`));
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: sandbox.url,
    credentials: { airtime: account, disbursement: account },
    store,
  });
  await pesakit.airtime.login();
  await pesakit.disbursement.login();
  return { pesakit, store };
}

/** Rows a second of one pass of `buy`. */
async function timed(buy) {
  const { pesakit, store } = await fresh();
  const started = performance.now();
  await buy(pesakit);
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return ROWS / seconds;
}

const products = {
  airtime: {
    title: 'Bulk airtime (`airtime.bulkPurchase`)',
    single: '`airtime.purchase`',
    send: async (pesakit, { msisdn, amount }) =>
      (await pesakit.airtime.purchase({ msisdn, amount })).record.status,
    bulk: (pesakit, options) => pesakit.airtime.bulkPurchase(rows, options),
  },
  payouts: {
    title: 'Bulk payouts (`disbursement.bulkPay`)',
    single: '`disbursement.pay`',
    // What a merchant would feel: the float each row holds may cost a little, not a lot.
    floor: 0.85,
    send: async (pesakit, row) => (await pesakit.disbursement.pay(row)).record.status,
    bulk: (pesakit, options) => pesakit.disbursement.bulkPay(rows, options),
  },
};

/** One product's batch against a loop of its single call, passes alternating. */
async function compare(product) {
  const loop = (pesakit) =>
    pool(ROWS, CONCURRENCY, async (index) => {
      const status = await product.send(pesakit, rows[index]);
      if (status !== 'success') throw new Error(`loop: row ${index + 1} is ${status}`);
    });
  const bulk = async (pesakit) => {
    const result = await product.bulk(pesakit, {
      batchId: `bench-${passes}`,
      concurrency: CONCURRENCY,
    });
    if (result.totals.succeeded !== ROWS) throw new Error(`bulk: ${JSON.stringify(result.totals)}`);
  };
  await timed(loop);
  await timed(bulk);
  const rates = { loop: [], bulk: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rates.loop.push(await timed(loop));
    rates.bulk.push(await timed(bulk));
  }
  const bulkRate = median(rates.bulk);
  const loopRate = median(rates.loop);
  report({
    benchmark: `${product.title}, ${ROWS} rows, concurrency ${CONCURRENCY}`,
    figure: `${bulkRate.toFixed(0)} rows/s`,
    baseline: `${product.single} loop ${loopRate.toFixed(0)} rows/s`,
    ratio: bulkRate / loopRate,
    ...(product.floor === undefined
      ? {}
      : { floor: `≥ ${product.floor}×`, met: bulkRate / loopRate >= product.floor }),
  });
}

try {
  await compare(products.airtime);
  await compare(products.payouts);
} finally {
  await sandbox.close();
  rmSync(directory, { recursive: true, force: true });
}
