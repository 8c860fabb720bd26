// The Express app under load for bench/callback-ack.mjs, in its own process so that the load
// generator never shares its event loop: pesakit's middleware over a receiver whose SQLite
// inbox lives in a fresh file (pesakit's defaults: WAL, synchronous=FULL, one commit per
// callback). Every callback is validated, stored and deduplicated before its 200. The receiver
// is not started: this measures the acknowledgement, which is what the platform waits on.
// argv[2]: how many collections (`order-0` on, 15,000 TZS, their answers lost) to store first,
// so that the platform's callbacks name open records. The receiver has the defaults a merchant
// gets, source budget included. Prints `listening on <url>`; closes on SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { Pesakit } from 'pesakit';
import { pesakitExpress } from 'pesakit/express';
import { SqliteReferenceStore } from 'pesakit/sqlite';

const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-ack-'));
const store = await SqliteReferenceStore.open(join(directory, 'store.sqlite'));
const records = Number(process.argv[2] ?? 0);
for (let i = 0; i < records; i += 1) {
  const intent = { merchantReference: `order-${i}`, product: 'collection', flow: 'mno' };
  await store.records.create({ ...intent, amount: 15000, msisdn: '255754123456' });
}
// No platform is called on the acknowledgement path; the URL only has to be well formed.
const pesakit = new Pesakit({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:9', store });
const receiver = pesakit.createCallbackReceiver({ onPaid() {}, onFailed() {}, onReview() {} });
const app = express();
app.use('/pesakit', pesakitExpress(receiver));
const server = app.listen(0, '127.0.0.1', () =>
  console.log(`listening on http://127.0.0.1:${server.address().port}`),
);
process.once('SIGTERM', async () => {
  server.close();
  await receiver.close();
  await store.close();
  rmSync(directory, { recursive: true, force: true });
  process.exit(0);
});
