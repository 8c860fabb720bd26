// Your integration under chaos, then checked against the platform's truth. This file plays
// both sides so it runs alone: a sandbox in chaos mode, and a shop — the SDK on a SQLite store,
// the callback receiver over HTTP, a reconciler, and the shop's own side (`fulfil`). Point the
// same steps at your own application instead (docs/chaos.md § Test your own integration):
//
//   1. run the sandbox in chaos mode          pesakit sandbox --chaos 42
//   2. drive your flows                       (your tests, your load script)
//   3. pause chaos                            POST /api/sandbox/_control/chaos {"paused": true}
//   4. drain                                  callbacks delivered, the reconciler passes
//   5. verify                                 pesakit verify --store shop.sqlite --sandbox …
//
//   npx tsx verify-integration.ts [seed] [payments]      exits 0 only when every check holds

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAmbiguousOutcomeError, isPesakitError, Pesakit, type TransactionRecord } from 'pesakit';
import { createSandbox } from 'pesakit/sandbox';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { formatVerifyReport, verifyAgainstSandbox } from 'pesakit/testing';

const seed = Number(process.argv[2] ?? 42);
const payments = Number(process.argv[3] ?? 60);
const account = { email: 'shop@example.co.tz', password: 'sandbox-pass-1' };

// 1. The sandbox in chaos mode: one request or callback in five draws a fault. A late answer is
//    held 1.5 s, past the shop's 1 s timeout: the payment happened, the shop does not know.
const sandbox = await createSandbox({
  chaos: { seed, rate: 0.2, lateMs: 1500, callbackDelayMs: 200 },
  autoSettle: { delayMs: 100 },
  callbackSchedule: [200, 500, 1000],
  seed: {
    accounts: [
      { product: 'collection', ...account },
      { product: 'airtime', ...account, balance: 10_000_000 },
      { product: 'disbursement', ...account, balance: 10_000_000 },
    ],
  },
});
const sandboxUrl = await sandbox.listen({ port: 0 });

// The shop. Its own side is `fulfil`: what your onPaid/onSent do (ship, credit, e-mail).
const directory = mkdtempSync(join(tmpdir(), 'pesakit-chaos-'));
const store = await SqliteReferenceStore.open(join(directory, 'shop.sqlite'));
const pesakit = new Pesakit({
  environment: 'sandbox',
  baseUrl: sandboxUrl,
  credentials: { collection: account, airtime: account, disbursement: account },
  store,
  timeoutMs: 1000,
});
const fulfilled = new Map<string, number>();
const fulfil = async (record: TransactionRecord) => {
  fulfilled.set(record.merchantReference, (fulfilled.get(record.merchantReference) ?? 0) + 1);
};
const handlers = { onPaid: fulfil, onFailed: fulfil, onSent: fulfil, onNotSent: fulfil };
const receiver = pesakit.createCallbackReceiver({
  ...handlers,
  pollIntervalMs: 50,
  effectDrainIntervalMs: 100,
});
const shop = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    receiver
      .receive({
        method: request.method ?? 'POST',
        url: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks),
      })
      .then((answer) => response.writeHead(answer.status, answer.headers).end(answer.body))
      .catch(() => response.writeHead(503).end());
  });
});
await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
const callbackUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/callback`;
receiver.start();

// 2. Drive the flows: collections, payouts and airtime, some to numbers that fail (…999).
//    An ambiguous outcome is expected under chaos (the reconciler resolves it); so is a refusal.
const outcomes = new Map<string, number>();
const count = (name: string) => outcomes.set(name, (outcomes.get(name) ?? 0) + 1);
for (let n = 0; n < payments; n += 1) {
  const merchantReference = `chaos-${seed}-${n}`;
  const msisdn = `255712${String(n).padStart(3, '0')}${n % 7 === 0 ? '999' : '123'}`;
  const amount = 1000 + n;
  try {
    if (n % 3 === 0) {
      await pesakit.collection.initiateMno(
        { amount, msisdn, callback_url: callbackUrl },
        { merchantReference },
      );
    } else if (n % 3 === 1) {
      await pesakit.disbursement.pay({ amount, msisdn, name: `Payee ${n}` }, { merchantReference });
    } else {
      await pesakit.airtime.purchase({ amount, msisdn }, { merchantReference });
    }
    count('answered');
  } catch (error) {
    if (isAmbiguousOutcomeError(error)) count('ambiguous');
    else if (isPesakitError(error)) count(error.name);
    else throw error;
  }
}

// 3. Pause chaos, so the drain is not faulted without end.
await fetch(`${sandboxUrl}/api/sandbox/_control/chaos`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ paused: true }),
});

// 4. Drain: the late answers and delayed callbacks land, then the reconciler passes until
//    nothing open is left to pull. Its windows are shortened for the run (never in production).
await new Promise((resolve) => setTimeout(resolve, 2000));
await sandbox.idle();
const reconciler = pesakit.createReconciler({
  ...handlers,
  initiatingGraceMs: 0,
  settleWindowMs: 2000,
  noReferenceWindowMs: 0,
  ratePerSecond: 500,
});
for (let pass = 0; pass < 10; pass += 1) {
  await reconciler.runOnce({ force: true });
  await sandbox.idle();
  await receiver.onIdle();
  const open = await store.records.list({ limit: 1 });
  const due = await store.effects.list('due', { limit: 1 });
  if (open.length === 0 && due.length === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
await reconciler.close();

// 5. Verify the shop's store and its own side against the sandbox's truth.
const report = await verifyAgainstSandbox({
  store,
  sandbox: sandboxUrl,
  effectsOf: (reference) => fulfilled.get(reference) ?? 0,
});
const drawn = sandbox.inspect.chaosSettings().drawn;
console.log(`seed ${seed}, ${payments} payments: ${JSON.stringify(Object.fromEntries(outcomes))}`);
console.log(`faults drawn: ${JSON.stringify(drawn)}`);
for (const line of formatVerifyReport(report)) console.log(line);

await receiver.close();
shop.close();
await sandbox.close();
await store.close();
rmSync(directory, { recursive: true, force: true });
process.exit(report.ok ? 0 : 1);
