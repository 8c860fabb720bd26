// One process of the two-process float test: runs a 30-row payout batch on a shared PostgreSQL
// store and prints each row's status and error name as JSON (a batch that already ran whole
// prints its rows as stored).
import { Pesakit } from '../../src/client.js';
import { isBatchAlreadyRunError } from '../../src/index.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { accounts } from '../helpers/sandbox-harness.js';
import { payoutRows } from './bulk-files.js';

const [databaseUrl, baseUrl, batchId, offset] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const store = await PostgresReferenceStore.open(databaseUrl, {
  schema: 'payouts',
  maxConnections: 4,
});
const pesakit = new Pesakit({ environment: 'sandbox', baseUrl, credentials: accounts, store });
const rows = payoutRows(Number(offset) + 30).slice(Number(offset));
// A batch whose every row already ran sends nothing and is refused, with its rows as stored.
const result = await pesakit.disbursement
  .bulkPay(rows, { batchId, partial: true, concurrency: 4 })
  .catch((error: unknown) => {
    if (isBatchAlreadyRunError(error)) return error.result;
    throw error;
  });
console.log(
  JSON.stringify({
    stoppedFor: result.stoppedFor ?? null,
    rows: result.rows.map((row) => ({ status: row.status, error: row.error?.name ?? null })),
  }),
);
await store.close();
