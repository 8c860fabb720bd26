import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import type { ReferenceStore, TransactionRecord } from '../../src/references/index.js';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { moves } from '../helpers/moves.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';
import { fund } from './helpers.js';

/**
 * A payout whose answer was lost after the platform paid it, and whose history row differs from
 * the request: it must end with a person (`history_partial_match`), never `failed` (which runs
 * `onNotSent` and invites paying again) and never `success` on the amount alone.
 */
let harness: Harness;
let database: TestDatabase;
const sqliteFile = temporarySqliteFiles('lost-payout');
let schemas = 0;

beforeAll(async () => {
  harness = await startHarness();
  database = await createTestDatabase('lost_payout');
});
afterAll(async () => {
  await harness?.close();
  await database?.drop();
});

const stores: Record<string, () => Promise<ReferenceStore>> = {
  SQLite: () => SqliteReferenceStore.open(sqliteFile()),
  PostgreSQL: () =>
    PostgresReferenceStore.open(database.url, { schema: `lost_${++schemas}`, maxConnections: 3 }),
};

/** Past the default 15-minute settle window of every payout sent so far (only `Date` moves). */
const afterTheSettleWindow = () => vi.setSystemTime(Date.now() + 16 * 60_000);

describe.each(Object.keys(stores))('a lost payout answer on %s', (kind) => {
  let store: ReferenceStore;
  let pesakit: Pesakit;
  let notSent: string[];

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    await harness.control('reset', {});
    await fund(harness, 'disbursement', 10_000_000);
    store = await stores[kind]!();
    pesakit = harness.client({ store, maxRetries: 0 });
    await pesakit.disbursement.login();
    notSent = [];
  });
  afterEach(async () => {
    vi.useRealTimers();
    await harness.control('faults', { latencyMs: 0 });
    await store.close();
  });

  /** A payout the platform makes while its answer is lost: the record stays `unknown`. */
  async function payWithLostAnswer(
    merchantReference: string,
    payee: { msisdn: string; amount: number; name: string },
    faults: Record<string, unknown> = {},
  ): Promise<void> {
    await harness.control('faults', { latencyMs: 1000, ...faults });
    const error = await pesakit.disbursement.pay(payee, { merchantReference, timeoutMs: 300 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error, 'the answer must be lost').toMatchObject({ code: 'ambiguous_outcome' });
    await harness.control('faults', { latencyMs: 0 });
    expect((await store.records.get(merchantReference))?.status).toBe('unknown');
  }

  async function reconcile(): Promise<void> {
    const reconciler = pesakit.createReconciler({
      onNotSent: (record) => void notSent.push(record.merchantReference),
    });
    await reconciler.runOnce({ force: true });
    await reconciler.close();
  }

  /** The platform's own history: what it paid, whatever pesakit recorded. */
  async function platformRows() {
    return (await harness.client().disbursement.payments({ per_page: 100 })).data;
  }

  it.each([
    ['msisdn', { msisdn: '255754200112' }],
    ['amount', { amount: 120_000 }],
    ['name', { name: 'Asha Mushi Mwakyusa' }],
  ] as const)(
    'a history row with another %s ends in needs_review with the row as evidence',
    async (field, told) => {
      const payee = { msisdn: '255754200111', amount: 12_000, name: 'Asha Mushi' };
      await payWithLostAnswer('payout-lost', payee, {
        contradict: { next: 1, field, in: 'history' },
      });
      const [row] = await platformRows();
      expect(row).toMatchObject({ status: 'completed', ...told });

      // Inside the settle window: still open, neither failed nor settled.
      await reconcile();
      expect((await store.records.get('payout-lost'))?.status).toBe('unknown');

      afterTheSettleWindow();
      await reconcile();
      const record = (await store.records.get('payout-lost')) as TransactionRecord;
      expect(record).toMatchObject({
        status: 'needs_review',
        refid: null,
        review: {
          reason: 'history_partial_match',
          evidence: { rows: [{ refid: row?.refid, txnid: row?.txnid, ...told }] },
        },
      });
      expect(notSent).toEqual([]);
    },
  );

  it('the reproduction: contradict msisdn in the history, 1 s latency, a 300 ms timeout → needs_review', async () => {
    await harness.control('faults', {
      contradict: { next: 1, field: 'msisdn', in: 'history' },
      latencyMs: 1000,
    });
    const lost = await pesakit.disbursement
      .pay(
        { msisdn: '255754200113', amount: 5_000, name: 'Juma' },
        { merchantReference: 'p1', timeoutMs: 300 },
      )
      .catch((error: unknown) => error);
    expect(lost).toMatchObject({ code: 'ambiguous_outcome' });
    await harness.control('faults', { latencyMs: 0 });
    afterTheSettleWindow();
    await reconcile();
    expect(await store.records.get('p1')).toMatchObject({
      status: 'needs_review',
      review: { reason: 'history_partial_match' },
    });
    expect(notSent).toEqual([]);
  });

  it('a spec-shaped history (txnid, refid, amount only) never settles on the amount: it ends in review', async () => {
    await payWithLostAnswer(
      'payout-bare',
      { msisdn: '255754200114', amount: 7_000, name: 'Neema' },
      { bareAnswers: { next: 1000, in: 'history' } },
    );
    const [row] = await platformRows();
    expect(Object.keys(row ?? {}).sort()).toEqual(['amount', 'refid', 'txnid']);

    await reconcile();
    expect((await store.records.get('payout-bare'))?.status).toBe('unknown');
    afterTheSettleWindow();
    await reconcile();
    expect(await store.records.get('payout-bare')).toMatchObject({
      status: 'needs_review',
      review: {
        reason: 'history_partial_match',
        evidence: { rows: [{ refid: row?.refid, amount: 7_000 }] },
      },
    });
    expect(notSent).toEqual([]);
  });

  it('two lost answers of a cut bulk run, each row agreeing with the other on amount, settle both', async () => {
    await harness.control('faults', { latencyMs: 1000 });
    const rows = [
      { msisdn: '255754200121', amount: 3_000, name: 'Staff 1' },
      { msisdn: '255754200122', amount: 3_000, name: 'Staff 2' },
    ];
    const result = await pesakit.disbursement.bulkPay(rows, { batchId: 'cut', timeoutMs: 300 });
    await harness.control('faults', { latencyMs: 0 });
    expect(result.rows.map((row) => row.status)).toEqual(['unknown', 'unknown']);
    expect(await platformRows()).toHaveLength(2);

    await reconcile();
    const settled = await store.records.getMany(['payout:cut:1', 'payout:cut:2']);
    expect(settled.map((record) => record?.status)).toEqual(['success', 'success']);
    const byMsisdn = new Map((await platformRows()).map((row) => [row.msisdn, row.refid]));
    expect(settled.map((record) => record?.refid)).toEqual([
      byMsisdn.get('255754200121'),
      byMsisdn.get('255754200122'),
    ]);
  });

  it('a row that exactly matches another open payout holds this one until that one claims it', async () => {
    await payWithLostAnswer('payout-sent', {
      msisdn: '255754200131',
      amount: 4_000,
      name: 'Baraka',
    });
    // Same amount, another number, never sent (the process died after its write-ahead).
    await store.records.create({
      merchantReference: 'payout-never-sent',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 4_000,
      msisdn: '255754200132',
    });
    await moves(store).transition('payout-never-sent', 'unknown');
    afterTheSettleWindow();

    // Checked alone first: the only row agrees on amount but is payout-sent's, still open.
    expect((await pesakit.disbursement.status('payout-never-sent')).status).toBe('unknown');
    expect((await pesakit.disbursement.status('payout-sent')).status).toBe('success');
    // Now the row is owned: nothing is left that could be this payout.
    expect(await pesakit.disbursement.status('payout-never-sent')).toMatchObject({
      status: 'failed',
      statusReason: expect.stringMatching(/^never reached the platform/),
    });
  });

  it('a payout that truly never reached the platform still ends failed after the window', async () => {
    await pesakit.disbursement.pay(
      { msisdn: '255754200141', amount: 1_500, name: 'Other' },
      { merchantReference: 'payout-unrelated' },
    );
    await store.records.create({
      merchantReference: 'payout-never-sent',
      product: 'disbursement',
      flow: 'disbursement',
      amount: 2_500,
      msisdn: '255754200142',
      metadata: { name: 'Rehema' },
    });
    await moves(store).transition('payout-never-sent', 'unknown');
    await reconcile();
    expect((await store.records.get('payout-never-sent'))?.status).toBe('unknown');
    afterTheSettleWindow();
    await reconcile();
    expect(await store.records.get('payout-never-sent')).toMatchObject({
      status: 'failed',
      statusReason: expect.stringMatching(/^never reached the platform/),
    });
    expect(notSent).toEqual(['payout-never-sent']);
  });
});
