// A scheduled reconciliation job: cron or a systemd timer runs it every few minutes. It pulls
// the platform's state for every pending/unknown payment that is due, settles it, and runs the
// shop's own handlers (fulfil the order, release the stock) for every payment it settled.
//
// Why a script and not `npx pesakit reconcile`? The CLI settles records but cannot run your
// code; when a payment settles here rather than through a callback, your `onPaid` must still
// run. Exit codes follow the CLI's: 0 nothing needs review, 3 something does (cron alerts on
// any non-zero code), 4 records of another account or environment were left unpulled (this
// job's credentials or PESAKIT_ENVIRONMENT are not the ones the payments were made with), 1 the
// run failed.
//
//   PESAKIT_STORE=./shop.sqlite PESAKIT_BASE_URL=http://127.0.0.1:4010 \
//   PESAKIT_COLLECTION_EMAIL=… PESAKIT_COLLECTION_PASSWORD=… npx tsx reconcile-job.ts
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { Pesakit } from 'pesakit';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { Fulfilment } from './fulfilment.js';

const env = process.env;

function required(name: string): string {
  const value = env[name];
  if (value === undefined || value === '') {
    console.error(`reconcile-job: set ${name} (see README.md).`);
    process.exit(2);
  }
  return value;
}

/**
 * A product's account from the environment; absent when neither variable is set. One without
 * the other (a misspelt name, a secret that did not load) stops the job: skipped silently, that
 * product's payments would never be reconciled while cron saw exit 0.
 */
function account(product: 'COLLECTION' | 'AIRTIME' | 'DISBURSEMENT') {
  const email = env[`PESAKIT_${product}_EMAIL`] || undefined;
  const password = env[`PESAKIT_${product}_PASSWORD`] || undefined;
  if (email === undefined && password === undefined) return undefined;
  if (email === undefined) required(`PESAKIT_${product}_EMAIL`);
  if (password === undefined) required(`PESAKIT_${product}_PASSWORD`);
  return { email: email!, password: password! };
}

const storeFile = required('PESAKIT_STORE');
// The application creates the store; a path that does not exist is a mistake in the setup.
if (!existsSync(storeFile)) {
  console.error(`reconcile-job: PESAKIT_STORE ${storeFile} does not exist (see README.md).`);
  process.exit(2);
}
const database = new Database(storeFile, { fileMustExist: true });
const fulfilment = new Fulfilment(database);
// The store shares the shop's SQLite file (one file to back up); pesakit leaves it open.
const store = await SqliteReferenceStore.open(database);
const collection = account('COLLECTION');
const airtime = account('AIRTIME');
const disbursement = account('DISBURSEMENT');
/** Production puts each product on its own host: PESAKIT_<PRODUCT>_BASE_URL. */
function productHosts() {
  const hosts: { collection?: string; airtime?: string; disbursement?: string } = {};
  for (const product of ['collection', 'airtime', 'disbursement'] as const) {
    const host = env[`PESAKIT_${product.toUpperCase()}_BASE_URL`];
    if (host) hosts[product] = host;
  }
  return hosts;
}
const production = env['PESAKIT_ENVIRONMENT'] === 'production';
const pesakit = new Pesakit({
  store,
  credentials: {
    ...(collection && { collection }),
    ...(airtime && { airtime }),
    ...(disbursement && { disbursement }),
  },
  ...(env['PESAKIT_API_KEY'] ? { apiKey: env['PESAKIT_API_KEY'] } : {}),
  // Production puts each product on its own host; the sandbox serves all three on one origin.
  ...(production
    ? {
        environment: 'production' as const,
        baseUrls: productHosts(),
      }
    : { environment: 'sandbox' as const, baseUrl: required('PESAKIT_BASE_URL') }),
});

const log = (event: string, fields: Record<string, unknown>) =>
  console.log(JSON.stringify({ event, at: new Date().toISOString(), ...fields }));

const reconciler = pesakit.createReconciler({
  concurrency: 4,
  // The shop's effects: idempotent by effectKey, because pesakit runs a handler until it
  // completes — exactly once in the normal case, again after a crash mid-handler.
  onPaid: (record, ctx) => {
    fulfilment.record(ctx.effectKey, 'paid', record.amount);
  },
  onFailed: (record, ctx) => {
    fulfilment.record(ctx.effectKey, 'failed', record.amount, record.statusReason ?? undefined);
  },
  // Money out (payouts and airtime sales) has its own handlers: never onPaid / onFailed.
  onSent: (record, ctx) => {
    fulfilment.record(ctx.effectKey, 'sent', record.amount, record.product);
  },
  onNotSent: (record, ctx) => {
    fulfilment.record(ctx.effectKey, 'not_sent', record.amount, record.statusReason ?? undefined);
  },
  onReview: (record, verdict, ctx) => {
    fulfilment.record(ctx.effectKey, 'needs_review', record.amount, verdict.message);
  },
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
// A payment made with another account (or environment) cannot be pulled with this one.
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
  const waiting = await store.reports.review({ limit: 1 });
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
