import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import type { NotVisibleWarning } from '../../src/references/account.js';
import {
  MemoryReferenceStore,
  type ReferenceStore,
  type TransactionRecord,
} from '../../src/references/index.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { moves } from '../helpers/moves.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';
import { fund, lostAnswer } from './helpers.js';

// docs/reconciler.md, "Records of another account": the platform shows a transaction only to
// the account that made it (a 404, no history row for any other), so a record of another
// account or environment is not pulled at all: counted `notVisible`, a `warning` naming both
// accounts, the record left open and untouched. A 404 for a record of this very account keeps
// its meaning inside the window, and goes to a person (`not_visible`) after it.

/** A second shop on the same sandbox: the credentials a job may carry by mistake. */
const other = {
  collection: { email: 'other-shop@duka.co.tz', password: 'other-collect-1' },
  airtime: { email: 'other-airtime@duka.co.tz', password: 'other-airtime-1' },
  disbursement: { email: 'other-payouts@duka.co.tz', password: 'other-payouts-1' },
} as const;

let harness: Harness;
let database: TestDatabase;
let schemas = 0;
const sqliteFile = temporarySqliteFiles('record-account');
const stores: ReferenceStore[] = [];

beforeAll(async () => {
  harness = await startHarness();
  database = await createTestDatabase('record_account');
});
afterAll(async () => {
  await harness.close();
  await database.drop();
});
beforeEach(async () => {
  await harness.control('reset', {});
  await harness.control('accounts', { product: 'collection', ...other.collection });
  await harness.control('accounts', {
    product: 'disbursement',
    ...other.disbursement,
    status: 'active',
  });
  await fund(harness, 'disbursement', 1_000_000);
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const storeKinds: Array<[string, () => Promise<ReferenceStore>]> = [
  ['SQLite', () => SqliteReferenceStore.open(sqliteFile())],
  [
    'PostgreSQL',
    () => {
      schemas += 1;
      return PostgresReferenceStore.open(database.url, {
        schema: `shop_${schemas}`,
        maxConnections: 2,
      });
    },
  ],
];

/** A client of `credentials` on `store` that records every request it sends. */
function clientOf(store: ReferenceStore, credentials: typeof accounts | typeof other) {
  const client = harness.client({ store, credentials });
  const sent: string[] = [];
  client.on('request', (event) => sent.push(event.path));
  return { client, sent };
}

/** Runs one forced pass, collecting the reconciler's warnings. */
async function forcedPass(client: Pesakit, options: { noReferenceWindowMs?: number } = {}) {
  const reconciler = client.createReconciler(options);
  const warnings: Array<{ warning: NotVisibleWarning; record: TransactionRecord }> = [];
  reconciler.on('warning', (warning, record) => warnings.push({ warning, record }));
  try {
    const summary = await reconciler.runOnce({ force: true });
    return { summary, warnings };
  } finally {
    await reconciler.close();
  }
}

/** A real sandbox collection, made and settled `success` in a scratch store: its references. */
async function paidAtThePlatform(amount: number) {
  const scratch = harness.client({ store: new MemoryReferenceStore() });
  const payment = await scratch.collection.initiateMno({ amount, msisdn: '255754123456' });
  await harness.control('collection/settle', { ref_id: payment.controlNumber, outcome: 'success' });
  return { controlNumber: payment.controlNumber, paymentReference: payment.reference };
}

describe.each(storeKinds)('%s store: records know their account', (_kind, openStore) => {
  let store: ReferenceStore;
  beforeEach(async () => {
    store = await openStore();
    stores.push(store);
  });

  it('payments made with account A, reconciled with account B: nothing pulled, notVisible counted, a warning names both accounts, the records untouched', async () => {
    const shopA = clientOf(store, accounts);
    const payment = await shopA.client.collection.initiateMno(
      { amount: 15_000, msisdn: '255754123456' },
      { merchantReference: 'col-a' },
    );
    await harness.control('collection/settle', {
      ref_id: payment.controlNumber,
      outcome: 'success',
    });
    await lostAnswer(harness, 'disbursement', store, (client, fast) =>
      client.disbursement.pay(
        { msisdn: '255754000111', amount: 12_000, name: 'Asha Mushi' },
        { merchantReference: 'payout-a', ...fast },
      ),
    );
    const before = [await store.records.get('col-a'), await store.records.get('payout-a')];
    expect(before.map((record) => record?.account)).toEqual([
      { environment: 'sandbox', login: accounts.collection.email },
      { environment: 'sandbox', login: accounts.disbursement.email },
    ]);

    const shopB = clientOf(store, other);
    const { summary, warnings } = await forcedPass(shopB.client);
    expect(summary).toMatchObject({
      checked: 0,
      notVisible: 2,
      settled: 0,
      failed: 0,
      review: 0,
      pending: 0,
      errors: 0,
    });
    expect(shopB.sent).toEqual([]);
    expect(warnings.map(({ warning }) => warning).sort(byReference)).toEqual([
      {
        code: 'not_visible',
        merchantReference: 'col-a',
        product: 'collection',
        recordAccount: { environment: 'sandbox', login: accounts.collection.email },
        clientAccount: { environment: 'sandbox', login: other.collection.email },
        message: expect.stringContaining(
          `collection account ${accounts.collection.email} (sandbox), and this client uses ${other.collection.email} (sandbox)`,
        ),
      },
      expect.objectContaining({
        merchantReference: 'payout-a',
        recordAccount: { environment: 'sandbox', login: accounts.disbursement.email },
        clientAccount: { environment: 'sandbox', login: other.disbursement.email },
      }),
    ]);
    // Open and untouched: status, references, checks, payload, review all as they were.
    expect([await store.records.get('col-a'), await store.records.get('payout-a')]).toEqual(before);

    // The next pass says it again (a cron job keeps alerting until the job is fixed).
    expect((await forcedPass(shopB.client)).summary).toMatchObject({ checked: 0, notVisible: 2 });

    // The account that made them settles them.
    const own = await forcedPass(shopA.client);
    expect(own.summary).toMatchObject({ checked: 2, settled: 2, notVisible: 0 });
    expect(own.warnings).toEqual([]);
  });

  it('a production store reconciled by a sandbox client: the sandbox is never asked, even for a reference it also knows', async () => {
    // A production client cannot reach the sandbox (production paths are /api/…, the sandbox
    // serves /api/sandbox/…), so the production record is written through the store, as a
    // production client's write-ahead and answer would leave it — with references the sandbox
    // also knows, for a payment the sandbox settled.
    const references = await paidAtThePlatform(20_000);
    await store.records.create({
      merchantReference: 'prod-order',
      product: 'collection',
      flow: 'mno',
      amount: 20_000,
      msisdn: '255754123456',
      account: { environment: 'production', login: accounts.collection.email },
    });
    await moves(store).attachAndTransition('prod-order', references, 'pending');
    const before = await store.records.get('prod-order');

    const sandboxClient = clientOf(store, accounts);
    const { summary, warnings } = await forcedPass(sandboxClient.client);
    expect(summary).toMatchObject({ checked: 0, settled: 0, notVisible: 1 });
    expect(sandboxClient.sent).toEqual([]);
    expect(warnings[0]?.warning).toMatchObject({
      recordAccount: { environment: 'production', login: accounts.collection.email },
      clientAccount: { environment: 'sandbox', login: accounts.collection.email },
    });
    expect(await store.records.get('prod-order')).toEqual(before);
  });

  it('a record written before records knew their account (account null) is any client’s: pulled', async () => {
    const references = await paidAtThePlatform(9_000);
    await store.records.create({
      merchantReference: 'old-order',
      product: 'collection',
      flow: 'mno',
      amount: 9_000,
      msisdn: '255754123456',
    });
    await moves(store).attachAndTransition('old-order', references, 'pending');
    expect((await store.records.get('old-order'))?.account).toBeNull();

    // Another account pulls it too (the platform answers 404): counted as a check, not hidden.
    const shopB = clientOf(store, other);
    const pulledByB = await forcedPass(shopB.client);
    expect(pulledByB.summary).toMatchObject({ checked: 1, pending: 1, notVisible: 0 });
    expect(shopB.sent.some((path) => path.endsWith('/transaction/status'))).toBe(true);

    const settled = await forcedPass(clientOf(store, accounts).client);
    expect(settled.summary).toMatchObject({ checked: 1, settled: 1, notVisible: 0 });
    expect((await store.records.get('old-order'))?.status).toBe('success');
  });

  it('a 404 for a collection of this account: still open inside noReferenceWindowMs, needs_review not_visible past it', async () => {
    const shopA = clientOf(store, accounts);
    const payment = await shopA.client.collection.initiateMno(
      { amount: 7_000, msisdn: '255754123456' },
      { merchantReference: 'col-gone' },
    );
    // The platform forgets it: the same account now gets 404 for its own control number.
    await harness.control('reset', {});

    const inside = await forcedPass(shopA.client);
    expect(inside.summary).toMatchObject({ checked: 1, pending: 1, review: 0, notVisible: 0 });
    expect(await store.records.get('col-gone')).toMatchObject({ status: 'pending', checkCount: 1 });

    const past = await forcedPass(shopA.client, { noReferenceWindowMs: 0 });
    expect(past.summary).toMatchObject({ checked: 1, review: 1, pending: 0 });
    const record = await store.records.get('col-gone');
    expect(record?.status).toBe('needs_review');
    expect(record?.review).toMatchObject({
      reason: 'not_visible',
      message: expect.stringContaining(payment.controlNumber),
      evidence: expect.objectContaining({ refId: payment.controlNumber, found: false }),
    });
  });

  it('a payout of this account whose refid the history never shows: still open inside settleWindowMs, needs_review not_visible past it', async () => {
    // Written through the store as `disbursement.pay` leaves a payout the platform answered
    // pending: a refid and txnid the platform gave, the account that sent it.
    await store.records.create({
      merchantReference: 'payout-ghost',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 5_000,
      msisdn: '255754000333',
      account: { environment: 'sandbox', login: accounts.disbursement.email },
    });
    await moves(store).attachAndTransition(
      'payout-ghost',
      { refid: 'DSB-GHOST-1', txnid: 'TXN-GHOST-1' },
      'pending',
    );
    const shopA = clientOf(store, accounts);
    const inside = await forcedPass(shopA.client);
    expect(inside.summary).toMatchObject({ checked: 1, pending: 1, review: 0 });
    expect(shopA.sent.some((path) => path.endsWith('/getPayments'))).toBe(true);

    const reconciler = shopA.client.createReconciler({ settleWindowMs: 0 });
    const past = await reconciler.runOnce({ force: true });
    await reconciler.close();
    expect(past).toMatchObject({ checked: 1, review: 1, failed: 0 });
    expect((await store.records.get('payout-ghost'))?.review).toMatchObject({
      reason: 'not_visible',
      evidence: expect.objectContaining({ refid: 'DSB-GHOST-1', found: false }),
    });
  });
});

function byReference(a: NotVisibleWarning, b: NotVisibleWarning): number {
  return a.merchantReference.localeCompare(b.merchantReference);
}
