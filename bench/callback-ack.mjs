// Callbacks acknowledged per second through Express with the SQLite inbox at synchronous=FULL,
// one commit per callback, 16 connections (autocannon, in this process; the app runs in its own,
// bench/lib/callback-ack-app.mjs). Every body is a new callback, so every one is a commit.
// Baseline, same run: how many commits a second raw better-sqlite3 makes at synchronous=FULL
// (WAL) on the same disk, one small insert each — the ceiling the disk sets for anyone.
// Floor: at least 800 acknowledged callbacks a second.
// Second figure: a genuine callback's onPaid with 4,000 forged callbacks (orphans) queued ahead of
// it in the SQLite inbox, from its arrival; baseline, the same with none queued. Floor: 2 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { CallbackReceiver } from 'pesakit';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { quick, report, spawnUntilListening } from './lib/common.mjs';

const SECONDS = quick ? 1 : 10;
const CONNECTIONS = 16;
const FLOOR = 800;
const FORGERIES = quick ? 400 : 4000;

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

/** Ms from the genuine callback's arrival to its onPaid, with `forgeries` orphans queued first. */
async function genuineOnPaidMs(forgeries) {
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-forged-'));
  const store = await SqliteReferenceStore.open(join(directory, 'store.sqlite'));
  const order = { merchantReference: 'order-genuine', product: 'collection', flow: 'mno' };
  await store.createIntent({ ...order, amount: 15000, msisdn: '255754123456' });
  await store.attachReferences('order-genuine', {
    controlNumber: '990000000000',
    paymentReference: `ENG${'0'.repeat(16)}`,
  });
  await store.transition('order-genuine', 'pending');
  let resolve;
  const paid = new Promise((settle) => {
    resolve = settle;
  });
  const receiver = new CallbackReceiver(
    { store, pull: pullGenuine },
    { onPaid: () => resolve(performance.now()), onReview() {} },
  );
  const headers = { 'content-type': 'application/json' };
  const post = (n) =>
    receiver.receive({ method: 'POST', url: '/callback', headers, body: callbackBody(n) });
  for (let n = 1; n <= forgeries; n += 1) await post(n);
  receiver.start();
  const arrived = performance.now();
  await post(0);
  const ms = (await paid) - arrived;
  await receiver.close();
  await store.close();
  rmSync(directory, { recursive: true, force: true });
  return ms;
}

let counter = 0;
const load = (url, duration) =>
  autocannon({
    url: `${url}/pesakit/callback?pesakit_ref=bench`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: callbackBody(++counter) }),
      },
    ],
  });

const app = await spawnUntilListening([
  fileURLToPath(new URL('lib/callback-ack-app.mjs', import.meta.url)),
]);
try {
  const probe = await fetch(`${app.url}/pesakit/callback?pesakit_ref=bench`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: callbackBody(++counter),
  });
  if (probe.status !== 200) throw new Error(`a valid callback answered ${probe.status}`);
  if (!quick) await load(app.url, 2);
  const result = await load(app.url, SECONDS);
  const failures = result.non2xx + result.errors + result.timeouts;
  const acks = result.requests.total / SECONDS;
  const commits = rawCommitsPerSecond(quick ? 1 : 3);
  report({
    benchmark: `Callback ack, Express + SQLite inbox (FULL), ${CONNECTIONS} connections`,
    figure: `${acks.toFixed(0)} acks/s${failures > 0 ? `, ${failures} failed` : ''}`,
    baseline: `raw SQLite ${commits.toFixed(0)} commits/s`,
    ratio: acks / commits,
    floor: `≥ ${FLOOR}/s`,
    met: acks >= FLOOR && failures === 0,
  });
} finally {
  await app.close();
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
