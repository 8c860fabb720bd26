// Fills a SQLite reference store with pending collections that the sandbox knows and never
// settles (MSISDNs ending 998), through the public SDK: every record is exactly what a
// merchant's own calls would have written, and each one's status pull answers `pending`.
import { Pesakit } from 'pesakit';
import { SqliteReferenceStore } from 'pesakit/sqlite';

export const account = { email: 'bench@pesakit.tz', password: 'bench-pass-123' };
export const seed = { accounts: [{ product: 'collection', ...account }] };

/** Creates `count` pending collections, `concurrency` at a time; returns their control numbers. */
export async function seedPendingCollections(file, url, count, concurrency = 16) {
  const store = await SqliteReferenceStore.open(file);
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
  return controlNumbers;
}
