// Callbacks acknowledged per second through Express with the SQLite inbox at synchronous=FULL,
// one commit per callback, 16 connections, all from one address, with the receiver's defaults
// (autocannon, in this process; the app runs in its own, bench/lib/callback-ack-app.mjs). Each
// callback is the platform's for one stored open collection, so every one is a new commit.
// Beside it, orphans from that address with the same defaults: what the source budget stores.
// Baseline, same run: how many commits a second raw better-sqlite3 makes at synchronous=FULL
// (WAL) on the same disk, one small insert each — the ceiling the disk sets for anyone. Floor:
// at least 800 acknowledged callbacks a second.
// Second figure: a genuine callback's onPaid with 4,000 forged callbacks (orphans) queued ahead of
// it in the SQLite inbox, from its arrival; baseline, the same with none queued. Floor: 2 s.
// Third: the same behind 1,000 forgeries that each name one real `unknown` record by its
// `pesakit_ref` (each with its own reference, which the platform does not know). Floor: 2 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { CallbackReceiver, NotFoundError } from 'pesakit';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { quick, report, spawnUntilListening } from './lib/common.mjs';

const SECONDS = quick ? 1 : 10;
const WARM_UP_SECONDS = quick ? 0 : 2;
/** One open record per callback sent, with room to spare at twice the floor. */
const RECORDS = (SECONDS + WARM_UP_SECONDS) * 2 * 800;
const [CONNECTIONS, FLOOR] = [16, 800];
const FORGERIES = quick ? 400 : 4000;
const NAMING = quick ? 200 : 1000;

/** A callback as the platform sends it; `n` makes each body (and its dedup key) new. */
function callbackBody(n) {
  return JSON.stringify({
    message: 'Transaction processed',
    code: '200',
    status: true,
    description: 'Payment received',
    data: {
      providerType: 'MNO',
      providerName: 'Vodacom',
      amount: 15000,
      paymentReference: `ENG${n.toString(16).padStart(16, '0')}`,
      payerMobile: '255754123456',
      transactionDate: '2026-11-23 10:00:00',
      transactionID: `TX${n}`,
      transactionChannel: 'USSD',
    },
    controlNumber: String(990000000000 + n),
    external_reference: null,
  });
}

/** Commits a second at synchronous=FULL, one insert per commit, for `seconds`. */
function rawCommitsPerSecond(seconds) {
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-commits-'));
  const database = new Database(join(directory, 'raw.sqlite'));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.exec('create table inbox (id integer primary key, body text not null)');
  const insert = database.prepare('insert into inbox (body) values (?)');
  const body = callbackBody(0);
  let commits = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    insert.run(body);
    commits += 1;
  }
  const rate = commits / ((performance.now() - started) / 1000);
  database.close();
  rmSync(directory, { recursive: true, force: true });
  return rate;
}

/** The platform's answer for the genuine payment (callbackBody(0)), after 20 ms. */
async function pullGenuine() {
  await sleep(20);
  return {
    ...{
      controlNumber: '990000000000',
      reference: `ENG${'0'.repeat(16)}`,
      external_reference: null,
    },
    ...{ channel: 'mno', amount: 15000, paid_amount: 15000, msisdn: '255754123456' },
    ...{ provider: 'vodacom', status: 'success', transactionID: 'TX0' },
    ...{ created_at: '2026-11-23T10:00:00Z', updated_at: '2026-11-23T10:00:05Z' },
  };
}

/** The platform's answer for the genuine payment; any other reference is unknown (404), 20 ms. */
async function pullGenuineOrNotFound(reference) {
  if (reference === '990000000000') return pullGenuine();
  await sleep(20);
  throw new NotFoundError('Not found', {
    ...{ status: 404, body: { message: 'Not found' }, headers: new Headers() },
    ...{ method: 'POST', path: '/api/collection/status' },
  });
}

/**
 * Ms from the genuine callback's arrival to its onPaid, with `forgeries` orphans queued first;
 * `naming`: each forgery names the stored `unknown` record `order-lost` by `pesakit_ref`.
 */
async function genuineOnPaidMs(forgeries, { naming = false } = {}) {
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-forged-'));
  const store = await SqliteReferenceStore.open(join(directory, 'store.sqlite'));
  const order = { merchantReference: 'order-genuine', product: 'collection', flow: 'mno' };
  await store.records.create({ ...order, amount: 15000, msisdn: '255754123456' });
  const answered = (status) => ({
    expected: 'initiating',
    change: { status, statusReason: null, attempted: true, final: false, effect: 'kept' },
  });
  const references = { controlNumber: '990000000000', paymentReference: `ENG${'0'.repeat(16)}` };
  await store.records.move('order-genuine', { ...answered('pending'), references });
  if (naming) {
    await store.records.create({ ...order, merchantReference: 'order-lost', amount: 15000 });
    await store.records.move('order-lost', answered('unknown'));
  }
  let resolve;
  const paid = new Promise((settle) => {
    resolve = settle;
  });
  const receiver = new CallbackReceiver(
    { store, pull: naming ? pullGenuineOrNotFound : pullGenuine },
    { onPaid: () => resolve(performance.now()), onReview() {} },
  );
  const headers = { 'content-type': 'application/json' };
  const post = (n, url = '/callback') =>
    receiver.receive({ method: 'POST', url, headers, body: callbackBody(n) });
  const forged = naming ? '/callback?pesakit_ref=order-lost' : '/callback';
  for (let n = 1; n <= forgeries; n += 1) await post(n, forged);
  receiver.start();
  const arrived = performance.now();
  await post(0);
  const ms = (await paid) - arrived;
  await receiver.close();
  await store.close();
  rmSync(directory, { recursive: true, force: true });
  return ms;
}

// Callback n is the platform's for `order-n` (its `pesakit_ref`), or names no record (orphans).
let counter = 0;
const load = (url, duration, { orphans = false } = {}) =>
  autocannon({
    url: `${url}/pesakit/callback`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          const n = counter++;
          const ref = orphans ? `no-such-order-${n}` : `order-${n}`;
          return {
            ...request,
            path: `/pesakit/callback?pesakit_ref=${ref}`,
            body: callbackBody(n),
          };
        },
      },
    ],
  });

const app = await spawnUntilListening([
  fileURLToPath(new URL('lib/callback-ack-app.mjs', import.meta.url)),
  String(RECORDS),
]);
try {
  const probe = await fetch(`${app.url}/pesakit/callback?pesakit_ref=order-${counter}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: callbackBody(counter++),
  });
  if (probe.status !== 200) throw new Error(`a valid callback answered ${probe.status}`);
  if (WARM_UP_SECONDS > 0) await load(app.url, WARM_UP_SECONDS);
  const result = await load(app.url, SECONDS);
  if (counter > RECORDS) throw new Error(`${counter} callbacks for ${RECORDS} records`);
  const failures = result.non2xx + result.errors + result.timeouts;
  const acks = result.requests.total / SECONDS;
  const commits = rawCommitsPerSecond(quick ? 1 : 3);
  report({
    benchmark: `Callback ack, Express + SQLite inbox (FULL), ${CONNECTIONS} connections, defaults`,
    figure: `${acks.toFixed(0)} acks/s${failures > 0 ? `, ${failures} failed` : ''}`,
    baseline: `raw SQLite ${commits.toFixed(0)} commits/s`,
    ratio: acks / commits,
    floor: `≥ ${FLOOR}/s`,
    met: acks >= FLOOR && failures === 0,
  });
} finally {
  await app.close();
}

// Orphans into a fresh app (an empty inbox: its backlog cap is not what answers).
const orphanApp = await spawnUntilListening([
  fileURLToPath(new URL('lib/callback-ack-app.mjs', import.meta.url)),
  '0',
]);
try {
  const flood = await load(orphanApp.url, SECONDS, { orphans: true });
  const stored = flood['2xx'] / SECONDS;
  const unexpected = flood.non2xx - (flood.statusCodeStats?.['503']?.count ?? 0);
  // The defaults: a burst of 1,200, then 20 a second, per source.
  const budget = (1200 + 20 * SECONDS) / SECONDS;
  report({
    benchmark: `Orphan callbacks from one address, defaults`,
    figure: `${stored.toFixed(0)} stored/s, ${(flood.non2xx / SECONDS).toFixed(0)}/s answered 503`,
    baseline: `the source budget ${budget.toFixed(0)}/s`,
    ratio: stored / budget,
    floor: `≤ ${budget.toFixed(0)}/s stored`,
    // The run lasts a little longer than SECONDS, and the budget refills meanwhile.
    met: stored <= budget * 1.05 && unexpected === 0 && flood.errors === 0,
  });
} finally {
  await orphanApp.close();
}

const alone = await genuineOnPaidMs(0);
const behind = await genuineOnPaidMs(FORGERIES);
report({
  benchmark: `Genuine onPaid behind ${FORGERIES.toLocaleString('en')} forged callbacks, SQLite inbox`,
  figure: `${behind.toFixed(0)} ms`,
  baseline: `no forgeries ${alone.toFixed(0)} ms`,
  ratio: behind / alone,
  floor: '≤ 2 s',
  met: behind <= 2000,
});

const behindNamed = await genuineOnPaidMs(NAMING, { naming: true });
report({
  benchmark: `Genuine onPaid behind ${NAMING.toLocaleString('en')} forgeries naming one real record, SQLite inbox`,
  figure: `${behindNamed.toFixed(0)} ms`,
  baseline: `no forgeries ${alone.toFixed(0)} ms`,
  ratio: behindNamed / alone,
  floor: '≤ 2 s',
  met: behindNamed <= 2000,
});
