// The SDK's cost per call over plain fetch, sequential calls to a tiny node:http server in its
// own process (this file, `--serve`), so the server's CPU is never the client's.
// - read: `collection.status(controlNumber)` against a raw fetch of the same POST (same bearer
//   token and body), then JSON.parse. Floor: at most 1.5× the raw fetch.
// - money: `collection.initiateMno(...)` with a SQLite store against a raw fetch of the same
//   POST plus the same durable writes done by hand with better-sqlite3 (WAL, synchronous=FULL):
//   the intent committed before sending and the answer committed after. What remains between
//   the two is the SDK's own work, not the disk's.
// Subject and baseline alternate call by call (each going first in every other pair); the figure
// is the median of the per-round medians.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  collectionPaths,
  median,
  quick,
  rawPost,
  report,
  spawnUntilListening,
} from './lib/common.mjs';

const TOKEN = 'bench-token-0123456789';
const CONTROL_NUMBER = '991234567890';

if (process.argv.includes('--serve')) serve();
else await main();

function serve() {
  const transaction = {
    controlNumber: CONTROL_NUMBER,
    reference: 'PSK-REF-0001',
    external_reference: null,
    channel: 'mno',
    amount: 15000,
    msisdn: '255754123456',
    provider: 'vodacom',
    status: 'pending',
    transactionID: null,
    paid_amount: null,
    created_at: '2026-11-23T10:00:00Z',
    updated_at: '2026-11-23T10:00:00Z',
  };
  let issued = 0;
  const answers = {
    [collectionPaths.login]: () =>
      JSON.stringify({
        token: TOKEN,
        token_type: 'Bearer',
        user: { id: 1, name: 'Bench Shop', email: 'bench@example.co.tz' },
      }),
    [collectionPaths.status]: () =>
      JSON.stringify({ message: 'Transaction found', data: transaction }),
    // Every initiation gets new references: a store refuses to give one to two payments.
    [collectionPaths.initiateMno]: () => {
      issued += 1;
      return JSON.stringify({
        message: 'Payment request sent',
        status: 'pending',
        controlNumber: `99${String(issued).padStart(10, '0')}`,
        reference: `PSK-${issued}`,
        amount: 15000,
      });
    },
  };
  const server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      const body = answers[req.url]?.();
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(body ?? '{"message":"not found"}');
    });
  });
  server.listen(0, '127.0.0.1', () =>
    console.log(`listening on http://127.0.0.1:${server.address().port}`),
  );
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
  });
}

async function main() {
  const { Pesakit } = await import('pesakit');
  const { SqliteReferenceStore } = await import('pesakit/sqlite');
  const { default: Database } = await import('better-sqlite3');
  const ROUNDS = quick ? 2 : 5;
  const CALLS = quick ? 20 : 300;

  const server = await spawnUntilListening([fileURLToPath(import.meta.url), '--serve']);
  const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-sdk-'));
  const store = await SqliteReferenceStore.open(join(directory, 'store.sqlite'));
  const credentials = { collection: { email: 'bench@example.co.tz', password: 'secret-pass' } };
  const options = { baseUrl: server.url, environment: 'sandbox', credentials };
  const withMemory = new Pesakit(options);
  const withSqlite = new Pesakit({ ...options, store });

  // The by-hand writes: a table of the same shape of work (one insert, one update, each its
  // own commit) in a file with the pragmas pesakit uses.
  const byHand = new Database(join(directory, 'by-hand.sqlite'));
  byHand.pragma('journal_mode = WAL');
  byHand.pragma('synchronous = FULL');
  byHand.exec(
    'create table payments (reference text primary key, amount integer, msisdn text, ' +
      'status text, control_number text, payment_reference text, payload text, updated_at text)',
  );
  const writeIntent = byHand.prepare(
    "insert into payments (reference, amount, msisdn, status, updated_at) values (?, ?, ?, 'initiating', ?)",
  );
  const writeAnswer = byHand.prepare(
    'update payments set status = ?, control_number = ?, payment_reference = ?, payload = ?, ' +
      'updated_at = ? where reference = ?',
  );
  const payment = { amount: 15000, msisdn: '255754123456' };
  let sequence = 0;
  const rawMoneyCall = async () => {
    const reference = `bench-${++sequence}`;
    writeIntent.run(reference, payment.amount, payment.msisdn, new Date().toISOString());
    const answer = await rawPost(server.url + collectionPaths.initiateMno, TOKEN, {
      ...payment,
      callback_url: `https://shop.example.co.tz/paid?pesakit_ref=${reference}`,
    });
    writeAnswer.run(
      'pending',
      answer.controlNumber,
      answer.reference,
      JSON.stringify(answer),
      new Date().toISOString(),
      reference,
    );
    return answer;
  };

  const comparisons = [
    {
      benchmark: 'SDK read call (`collection.status`), sequential',
      against: 'raw fetch',
      baseline: () =>
        rawPost(server.url + collectionPaths.status, TOKEN, { ref_id: CONTROL_NUMBER }),
      subject: () => withMemory.collection.status(CONTROL_NUMBER),
      check: (answer) => answer?.data?.controlNumber === CONTROL_NUMBER,
      floor: 1.5,
    },
    {
      benchmark: 'SDK money call (`collection.initiateMno`), SQLite store',
      against: 'raw fetch + the same 2 commits',
      baseline: rawMoneyCall,
      subject: () =>
        withSqlite.collection.initiateMno({
          ...payment,
          callback_url: 'https://shop.example.co.tz/paid',
        }),
      check: (answer) => /^99\d{10}$/.test(answer?.controlNumber),
    },
  ];
  try {
    for (const { benchmark, baseline, subject, check, floor, against } of comparisons) {
      for (const call of [baseline, subject]) {
        const answer = await call();
        if (!check(answer)) throw new Error(`${benchmark} answered ${JSON.stringify(answer)}`);
      }
      await alternate(baseline, subject, CALLS); // warm-up
      const rounds = [];
      for (let round = 0; round < ROUNDS; round++)
        rounds.push(await alternate(baseline, subject, CALLS));
      const base = median(rounds.map((r) => r.baseline));
      const sdk = median(rounds.map((r) => r.subject));
      const ratio = median(rounds.map((r) => r.subject / r.baseline));
      report({
        benchmark,
        figure: `${(sdk * 1000).toFixed(0)} µs/call`,
        baseline: `${against} ${(base * 1000).toFixed(0)} µs/call`,
        ratio,
        ...(floor ? { floor: `≤ ${floor}×`, met: ratio <= floor } : {}),
      });
    }
  } finally {
    await store.close();
    byHand.close();
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** `count` pairs of sequential calls, the two sides in turn; each side's median latency (ms). */
async function alternate(baseline, subject, count) {
  const times = { baseline: [], subject: [] };
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? ['baseline', 'subject'] : ['subject', 'baseline'];
    for (const side of order) {
      const started = performance.now();
      await (side === 'baseline' ? baseline() : subject());
      times[side].push(performance.now() - started);
    }
  }
  return { baseline: median(times.baseline), subject: median(times.subject) };
}
