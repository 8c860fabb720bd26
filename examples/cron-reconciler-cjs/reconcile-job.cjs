// The scheduled reconciliation job of examples/cron-reconciler, in CommonJS (`require`; no
// top-level await, so the run is in `main()`). Same environment, same exit codes: 0 nothing
// needs review, 3 something does, 4 records of another account or environment were left
// unpulled, 1 the run failed, 2 the setup is wrong.
//
//   PESAKIT_STORE=./shop.sqlite PESAKIT_BASE_URL=http://127.0.0.1:4010 \
//   PESAKIT_COLLECTION_EMAIL=… PESAKIT_COLLECTION_PASSWORD=… node reconcile-job.cjs
const { existsSync } = require('node:fs');
const Database = require('better-sqlite3');
const { Pesakit, reportsOf } = require('pesakit');
const { SqliteReferenceStore } = require('pesakit/sqlite');
const { Fulfilment } = require('./fulfilment.cjs');

const env = process.env;

function required(name) {
  const value = env[name];
  if (value === undefined || value === '') {
    console.error(`reconcile-job: set ${name} (see README.md).`);
    process.exit(2);
  }
  return value;
}

/** A product's account from the environment; one variable without the other stops the job. */
function account(product) {
  const email = env[`PESAKIT_${product}_EMAIL`] || undefined;
  const password = env[`PESAKIT_${product}_PASSWORD`] || undefined;
  if (email === undefined && password === undefined) return undefined;
  if (email === undefined) required(`PESAKIT_${product}_EMAIL`);
  if (password === undefined) required(`PESAKIT_${product}_PASSWORD`);
  return { email, password };
}

/** Production puts each product on its own host: PESAKIT_<PRODUCT>_BASE_URL. */
function productHosts() {
  const hosts = {};
  for (const product of ['collection', 'airtime', 'disbursement']) {
    const host = env[`PESAKIT_${product.toUpperCase()}_BASE_URL`];
    if (host) hosts[product] = host;
  }
  return hosts;
}

const log = (event, fields) =>
  console.log(JSON.stringify({ event, at: new Date().toISOString(), ...fields }));

async function main() {
  const storeFile = required('PESAKIT_STORE');
  // The application creates the store; a path that does not exist is a mistake in the setup.
  if (!existsSync(storeFile)) {
    console.error(`reconcile-job: PESAKIT_STORE ${storeFile} does not exist (see README.md).`);
    process.exit(2);
  }
  const database = new Database(storeFile, { fileMustExist: true });
  const fulfilment = new Fulfilment(database);
  const store = await SqliteReferenceStore.open(database);
  const collection = account('COLLECTION');
  const airtime = account('AIRTIME');
  const disbursement = account('DISBURSEMENT');
  const production = env.PESAKIT_ENVIRONMENT === 'production';
  const pesakit = new Pesakit({
    store,
    credentials: {
      ...(collection && { collection }),
      ...(airtime && { airtime }),
      ...(disbursement && { disbursement }),
    },
    ...(env.PESAKIT_API_KEY ? { apiKey: env.PESAKIT_API_KEY } : {}),
    ...(production
      ? { environment: 'production', baseUrls: productHosts() }
      : { environment: 'sandbox', baseUrl: required('PESAKIT_BASE_URL') }),
  });

  const reconciler = pesakit.createReconciler({
    concurrency: 4,
    // Idempotent by effectKey: pesakit runs a handler until it completes.
    onPaid: (record, ctx) => fulfilment.record(ctx.effectKey, 'paid', record.amount),
    onFailed: (record, ctx) =>
      fulfilment.record(ctx.effectKey, 'failed', record.amount, record.statusReason ?? undefined),
    // Money out (payouts and airtime sales) has its own handlers: never onPaid / onFailed.
    onSent: (record, ctx) =>
      fulfilment.record(ctx.effectKey, 'sent', record.amount, record.product),
    onNotSent: (record, ctx) =>
      fulfilment.record(ctx.effectKey, 'not_sent', record.amount, record.statusReason ?? undefined),
    onReview: (record, verdict, ctx) =>
      fulfilment.record(ctx.effectKey, 'needs_review', record.amount, verdict.message),
  });
  reconciler.on('settled', (record) =>
    log('settled', { merchantReference: record.merchantReference }),
  );
  reconciler.on('failed', (record) =>
    log('failed', { merchantReference: record.merchantReference, reason: record.statusReason }),
  );
  reconciler.on('review', (record, verdict) =>
    log('review', { merchantReference: record.merchantReference, reason: verdict.reason }),
  );
  reconciler.on('warning', (warning) =>
    log('not_visible', {
      merchantReference: warning.merchantReference,
      recordAccount: warning.recordAccount,
      clientAccount: warning.clientAccount,
    }),
  );
  reconciler.on('error', (error, record) =>
    log('error', { merchantReference: record?.merchantReference, error: String(error) }),
  );

  let exitCode = 0;
  try {
    const summary = await reconciler.runOnce();
    const waiting = await reportsOf(store).review({ limit: 1 });
    exitCode = summary.notVisible > 0 ? 4 : waiting.length > 0 ? 3 : 0;
    log('summary', { ...summary, needsReview: waiting.length > 0, exitCode });
  } catch (error) {
    log('error', { error: String(error) });
    exitCode = 1;
  } finally {
    await reconciler.close();
    await store.close();
    database.close();
  }
  process.exitCode = exitCode;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
