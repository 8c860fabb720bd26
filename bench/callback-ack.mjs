// Callbacks acknowledged per second through Express with the SQLite inbox at synchronous=FULL,
// one commit per callback, 16 connections (autocannon, in this process; the app runs in its own,
// bench/lib/callback-ack-app.mjs). Every body is a new callback, so every one is a commit.
// Baseline, same run: how many commits a second raw better-sqlite3 makes at synchronous=FULL
// (WAL) on the same disk, one small insert each — the ceiling the disk sets for anyone.
// Floor: at least 800 acknowledged callbacks a second.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { quick, report, spawnUntilListening } from './lib/common.mjs';

const SECONDS = quick ? 1 : 10;
const CONNECTIONS = 16;
const FLOOR = 800;

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
