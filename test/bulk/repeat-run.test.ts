import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type BatchAlreadyRunError,
  isBatchAlreadyRunError,
  type ReferenceStore,
} from '../../src/index.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import { airtimeBulkRows } from '../../src/resources/bulk/airtime-bulk.js';
import { checkedBatchId, derivedBatchId } from '../../src/resources/bulk/batch-id.js';
import { payoutBulkRows } from '../../src/resources/bulk/payout-bulk.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { failure } from '../helpers/failure.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';
import {
  airtimeBalance,
  batchRows,
  csvOf,
  fundAirtime,
  fundPayouts,
  payoutBalance,
  payoutCsvOf,
  payoutRows,
  payoutsByMsisdn,
  purchasesByMsisdn,
  type SheetRow,
  xlsxOf,
} from './bulk-files.js';

const hour = 60 * 60 * 1000;
const derivedId = /^rows-[a-z2-7]{26}$/;

/** The store's clock: real time moved by `offset`, so a test can write records a day old. */
const clock = {
  offset: 0,
  now: () => new Date(Date.now() + clock.offset),
};

let database: TestDatabase;
const sqliteFile = temporarySqliteFiles('repeat-run');
let schemas = 0;
beforeAll(async () => {
  database = await createTestDatabase('repeat-run');
});
afterAll(() => database?.drop());

const stores = [
  { name: 'SQLite', open: () => SqliteReferenceStore.open(sqliteFile(), { now: clock.now }) },
  {
    name: 'PostgreSQL',
    open: () =>
      PostgresReferenceStore.open(database.url, {
        schema: `repeat_${++schemas}`,
        maxConnections: 4,
        now: clock.now,
      }),
  },
];

/** The same rows saved again: another sheet name, author and dates, MSISDNs as numbers. */
async function resavedXlsx(rows: readonly SheetRow[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Finance';
  workbook.modified = new Date('2026-11-30T10:00:00Z');
  const sheet = workbook.addWorksheet('Staff November');
  sheet.addRow(['MSISDN', 'Amount', 'Reference']);
  for (const row of rows) sheet.addRow([Number(row.msisdn), row.amount, row.reference ?? null]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The earliest `createdAt` of a batch's records: when it ran. */
async function ranAt(store: ReferenceStore, prefix: string, batchId: string, rows: number) {
  const references = Array.from({ length: rows }, (_, i) => `${prefix}:${batchId}:${i + 1}`);
  const records = (await store.records.getMany(references)).filter(
    (record) => record !== undefined,
  );
  return new Date(Math.min(...records.map((record) => record!.createdAt.getTime())));
}

describe('a batch id derived from the rows', () => {
  it('is `rows-` and 26 base32 characters, a valid batch id, one per product and per rows', () => {
    const rows = [{ row: 1, msisdn: '255750000011', amount: 1000, name: 'Staff 1' }];
    const id = derivedBatchId(payoutBulkRows, rows);
    expect(id).toMatch(derivedId);
    expect(checkedBatchId(id, 'disbursementBulkPay')).toBe(id);
    expect(derivedBatchId(payoutBulkRows, [{ ...rows[0]! }])).toBe(id);
    expect(derivedBatchId(airtimeBulkRows, rows)).not.toBe(id);
    for (const changed of [{ row: 2 }, { msisdn: '255750000021' }, { amount: 1000.5 }]) {
      expect(derivedBatchId(payoutBulkRows, [{ ...rows[0]!, ...changed }])).not.toBe(id);
    }
    expect(derivedBatchId(payoutBulkRows, [{ ...rows[0]!, name: 'Staff 2' }])).not.toBe(id);
    expect(derivedBatchId(payoutBulkRows, [{ ...rows[0]!, reference: 'x' }])).not.toBe(id);
  });
});

describe.each(stores)('$name: a bulk file is never paid twice by accident', ({ open }) => {
  let harness: Harness;
  let store: ReferenceStore;
  beforeEach(async () => {
    clock.offset = 0;
    harness = await startHarness();
    store = await open();
  });
  afterEach(async () => {
    await store.close();
    await harness.close();
  });
  const client = () => harness.client({ store });

  describe('the same rows run again without a batch id', () => {
    it('payouts: the same CSV again sends nothing: BatchAlreadyRunError names the batch and when it ran', async () => {
      await fundPayouts(harness, 10_000);
      const csv = payoutCsvOf(payoutRows(5));
      const first = await client().disbursement.bulkPay(csv);
      expect(first.batchId).toMatch(derivedId);
      expect(first.totals).toMatchObject({ succeeded: 5, sent: 5 });

      const error = await failure(client().disbursement.bulkPay(csv));
      expect(isBatchAlreadyRunError(error)).toBe(true);
      const { batchId, ranAt: at, result, code, message } = error as BatchAlreadyRunError;
      expect(code).toBe('batch_already_run');
      expect(batchId).toBe(first.batchId);
      expect(at).toEqual(await ranAt(store, 'payout', batchId, 5));
      const when = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
      expect(message).toBe(
        `These rows already ran as batch ${batchId}, started ${when}: every row has a record, ` +
          'so nothing was sent. Each row is reported as that run left it. To pay the same rows ' +
          "again (next month's run), give a new batch id.",
      );
      expect(result.totals).toMatchObject({
        succeeded: 5,
        sent: 0,
        amountSucceeded: 5000,
        amountSucceededNow: 0,
      });
      for (const row of result.rows) {
        expect(row).toMatchObject({ status: 'success', fromEarlierRun: true });
        expect(row.message).toMatch(
          new RegExp(
            `^Already sent in batch ${batchId} at \\d{4}-\\d\\d-\\d\\dT[\\d:]{8}Z: success`,
          ),
        );
      }
      expect([...(await payoutsByMsisdn(harness)).values()]).toEqual([1, 1, 1, 1, 1]);
      expect(await payoutBalance(harness)).toBe(10_000 - 5 * 1100);
    });

    it('airtime: a re-saved .xlsx of the same rows (other bytes) is the same batch, as is their CSV', async () => {
      await fundAirtime(harness, 20_000);
      const rows = batchRows(4);
      const saved = await xlsxOf(rows);
      const resaved = await resavedXlsx(rows);
      expect(Buffer.compare(saved, resaved)).not.toBe(0);

      const first = await client().airtime.bulkPurchase(saved);
      expect(first.totals).toMatchObject({ succeeded: 4, sent: 4 });
      for (const again of [resaved, csvOf(rows)]) {
        const error = await failure(client().airtime.bulkPurchase(again));
        expect(isBatchAlreadyRunError(error)).toBe(true);
        expect((error as BatchAlreadyRunError).batchId).toBe(first.batchId);
      }
      expect([...(await purchasesByMsisdn(harness)).values()]).toEqual([1, 1, 1, 1]);
      expect(await airtimeBalance(harness)).toBe(20_000 - 4000);
    });

    it('a partly sent batch is resumed: only the rows never sent are sent, and counted', async () => {
      await fundPayouts(harness, 10_000);
      const rows = payoutRows(5);
      const stop = new AbortController();
      const first = client().disbursement.bulkPay(rows, { concurrency: 1, signal: stop.signal });
      first.on('progress', (totals) => totals.done === 2 && stop.abort());
      expect((await first).stoppedFor).toBe('aborted');

      const second = await client().disbursement.bulkPay(rows);
      expect(second.batchId).toBe((await first).batchId);
      expect(second.rows.map((row) => [row.status, row.fromEarlierRun])).toEqual([
        ['success', true],
        ['success', true],
        ['success', false],
        ['success', false],
        ['success', false],
      ]);
      expect(second.totals).toMatchObject({
        succeeded: 5,
        sent: 3,
        amountSucceededNow: 3000,
        amountSucceeded: 5000,
      });
      expect(second.rows[0]?.message).toMatch(
        new RegExp(`^Already sent in batch ${second.batchId} at .*Z: success`),
      );
      expect([...(await payoutsByMsisdn(harness)).values()]).toEqual([1, 1, 1, 1, 1]);
    });
  });

  describe("next month's run of the same rows", () => {
    it('is paid again with a new batch id; refused without one; refused again under the new id', async () => {
      await fundPayouts(harness, 20_000);
      const rows = payoutRows(3);
      await client().disbursement.bulkPay(rows);
      expect(isBatchAlreadyRunError(await failure(client().disbursement.bulkPay(rows)))).toBe(true);

      const december = await client().disbursement.bulkPay(rows, { batchId: 'salaries-2026-12' });
      expect(december.totals).toMatchObject({ succeeded: 3, sent: 3, amountSucceededNow: 3000 });
      expect([...(await payoutsByMsisdn(harness)).values()]).toEqual([2, 2, 2]);

      // An explicit id whose every row has a record has nothing to send either: said, not done.
      const error = await failure(
        client().disbursement.bulkPay(rows, { batchId: 'salaries-2026-12' }),
      );
      expect(isBatchAlreadyRunError(error)).toBe(true);
      expect((error as BatchAlreadyRunError).message).toMatch(
        /^Batch salaries-2026-12 already ran, started .*Z: every row has a record/,
      );
      expect((error as BatchAlreadyRunError).result.rows.map((row) => row.status)).toEqual([
        'success',
        'success',
        'success',
      ]);
      expect([...(await payoutsByMsisdn(harness)).values()]).toEqual([2, 2, 2]);
    });
  });

  describe('a derived batch id resumes a run started within 24 hours only', () => {
    it('a run started 23 hours ago is resumed', async () => {
      await fundPayouts(harness, 10_000);
      const rows = payoutRows(3);
      clock.offset = -23 * hour;
      const stop = new AbortController();
      const first = client().disbursement.bulkPay(rows, { concurrency: 1, signal: stop.signal });
      first.on('progress', (totals) => totals.done === 1 && stop.abort());
      expect((await first).totals.sent).toBe(1);

      clock.offset = 0;
      const second = await client().disbursement.bulkPay(rows);
      expect(second.totals).toMatchObject({ succeeded: 3, sent: 2 });
      expect([...(await payoutsByMsisdn(harness)).values()]).toEqual([1, 1, 1]);
    });

    it('a run started more than 24 hours ago is BatchAlreadyRunError, rows missing or not; its id resumes it', async () => {
      await fundPayouts(harness, 10_000);
      const rows = payoutRows(5);
      clock.offset = -25 * hour;
      const stop = new AbortController();
      const first = client().disbursement.bulkPay(rows, { concurrency: 1, signal: stop.signal });
      first.on('progress', (totals) => totals.done === 2 && stop.abort());
      const { batchId } = await first;

      clock.offset = 0;
      const error = await failure(client().disbursement.bulkPay(rows));
      expect(isBatchAlreadyRunError(error)).toBe(true);
      const refused = error as BatchAlreadyRunError;
      expect(refused.batchId).toBe(batchId);
      expect(refused.ranAt).toEqual(await ranAt(store, 'payout', batchId, 5));
      expect(Date.now() - refused.ranAt.getTime()).toBeGreaterThan(24 * hour);
      expect(refused.message).toMatch(
        new RegExp(
          `^These rows already ran as batch ${batchId}, started .*Z, more than 24 hours ago: ` +
            `nothing was sent\\. .*To send the 3 rows it did not, give its id, ${batchId}, as the ` +
            'batch id; to pay every row again',
        ),
      );
      expect(refused.result.rows.map((row) => row.status)).toEqual([
        'success',
        'success',
        'skipped',
        'skipped',
        'skipped',
      ]);
      expect(refused.result.rows[2]?.message).toMatch(/more than 24 hours ago/);
      expect(refused.result.totals).toMatchObject({ sent: 0, amountSucceededNow: 0 });
      expect((await payoutsByMsisdn(harness)).size).toBe(2);

      // Named explicitly, the day-old batch resumes as any batch id does.
      const resumed = await client().disbursement.bulkPay(rows, { batchId });
      expect(resumed.totals).toMatchObject({ succeeded: 5, sent: 3 });
      expect([...(await payoutsByMsisdn(harness)).values()]).toEqual([1, 1, 1, 1, 1]);
    });

    it('a complete run more than 24 hours ago is refused as every row has a record', async () => {
      await fundAirtime(harness, 10_000);
      const rows = batchRows(2);
      clock.offset = -48 * hour;
      await client().airtime.bulkPurchase(rows);
      clock.offset = 0;
      const error = await failure(client().airtime.bulkPurchase(rows));
      expect((error as BatchAlreadyRunError).message).toMatch(/every row has a record/);
      expect([...(await purchasesByMsisdn(harness)).values()]).toEqual([1, 1]);
    });
  });
});
