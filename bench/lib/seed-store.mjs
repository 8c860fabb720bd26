// Fills a SQLite reference store with pending collections that the sandbox knows and never
// settles (MSISDNs ending 998), through the public SDK: every record is exactly what a
// merchant's own calls would have written, and each one's status pull answers `pending`.
import Database from 'better-sqlite3';
import { Pesakit } from 'pesakit';
import { SqliteReferenceStore } from 'pesakit/sqlite';

export const account = { email: 'bench@pesakit.tz', password: 'bench-pass-123' };
export const seed = { accounts: [{ product: 'collection', ...account }] };

/** Creates `count` pending collections, `concurrency` at a time; returns their control numbers. */
export async function seedPendingCollections(file, url, count, concurrency = 16) {
  // Seeding is set-up, not the measurement: skip the fsync per write (the reconciler process
  // opens the file again with pesakit's defaults).
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = OFF');
  const store = await SqliteReferenceStore.open(database);
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: { collection: account },
    store,
  });
  const controlNumbers = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      // Distinct numbers (…998 keeps each pending) and amounts, as real traffic would have.
      const msisdn = `25575${String(index % 10_000).padStart(4, '0')}998`;
      const payment = await pesakit.collection.initiateMno({ amount: 1000 + index, msisdn });
      controlNumbers.push(payment.controlNumber);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await store.close();
  database.close();
  return controlNumbers;
}

/**
 * Writes `count` pending collections straight into the store, with control numbers the sandbox
 * has never issued: fast enough for 100,000 records. Each one's status pull is still a real
 * HTTP round trip, answered 404, which the reconciler records as "not found yet" and keeps
 * pending — the whole per-record path (lease, pull, decide, schedule) without creating 100,000
 * payments in the sandbox first.
 */
export async function seedUnknownToPlatform(file, count) {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = OFF');
  const store = await SqliteReferenceStore.open(database);
  for (let index = 0; index < count; index++) {
    const merchantReference = `BENCH-${String(index).padStart(7, '0')}`;
    await store.createIntent({
      merchantReference,
      product: 'collection',
      flow: 'mno',
      amount: 1000 + (index % 50_000),
      msisdn: '255754000998',
    });
    await store.attachReferences(merchantReference, {
      controlNumber: `98${String(index).padStart(10, '0')}`,
    });
    await store.transition(merchantReference, 'pending');
  }
  await store.close();
  database.close();
}

/**
 * Many pending collections, fast: the sandbox creates every one (each status pull gets a real
 * `pending` answer about a real payment), but the SDK writes only the first; the rest are that
 * row copied in one transaction with each one's own merchant reference, control number,
 * engine reference and amount. Creating 100,000 through the SDK and the store one by one
 * takes longer than the pass being measured; this takes the sandbox's time and about a second.
 * Returns the control numbers.
 */
export async function seedManyPendingCollections(file, url, count, concurrency = 32) {
  const [first] = await seedPendingCollections(file, url, 1);
  const login = await fetch(`${url}/api/sandbox/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  }).then((response) => response.json());
  const initiateUrl = `${url}/api/sandbox/initiate-payment/mno/`;
  const created = new Array(count - 1);
  let next = 1;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const amount = 1000 + (index % 50_000);
      const msisdn = `25575${String(index % 10_000).padStart(4, '0')}998`;
      const response = await fetch(initiateUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
        body: JSON.stringify({ amount, msisdn }),
      });
      const body = await response.json();
      if (!response.ok || !body.controlNumber) {
        throw new Error(`the sandbox refused a collection: ${JSON.stringify(body)}`);
      }
      created[index - 1] = { index, amount, msisdn, body };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));

  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = OFF');
  const template = database.prepare('select * from pesakit_transactions').get();
  const columns = Object.keys(template);
  const insert = database.prepare(
    `insert into pesakit_transactions (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  database.transaction(() => {
    for (const { index, amount, msisdn, body } of created) {
      insert.run({
        ...template,
        merchant_reference: `BENCH-${String(index).padStart(7, '0')}`,
        amount_cents: amount * 100,
        msisdn,
        control_number: body.controlNumber,
        payment_reference: body.reference,
        last_payload: JSON.stringify(body),
      });
    }
  })();
  database.close();
  return [first, ...created.map(({ body }) => body.controlNumber)];
}
