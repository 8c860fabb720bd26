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
