import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInsufficientFundsError, isValidationError } from '../../src/errors/index.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import {
  type BatchAlreadyRunError,
  isBatchAlreadyRunError,
} from '../../src/resources/bulk/batch-already-run-error.js';
import {
  type BatchMismatchError,
  isBatchMismatchError,
} from '../../src/resources/bulk/batch-mismatch-error.js';
import {
  type BulkValidationError,
  isBulkValidationError,
} from '../../src/resources/bulk/bulk-validation-error.js';
import type { AirtimeBulkRowOutcome, AirtimeBulkTotals } from '../../src/resources/bulk/types.js';
import { isSpreadsheetError } from '../../src/spreadsheets/index.js';
import { failure } from '../helpers/failure.js';
import { moves } from '../helpers/moves.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import {
  airtimeBalance,
  batchRows,
  csvOf,
  fundAirtime,
  purchasesByMsisdn,
  xlsxOf,
} from './bulk-files.js';

let harness: Harness;
let store: MemoryReferenceStore;
beforeEach(async () => {
  harness = await startHarness();
  store = new MemoryReferenceStore();
});
afterEach(() => harness.close());

const client = () => harness.client({ store });

describe('a batch from a spreadsheet: every row becomes one purchase', () => {
  it('sends 500 rows of an .xlsx file, each stored under <batchId>:<row>, with row and progress events', async () => {
    await fundAirtime(harness, 600_000);
    const rows = batchRows(500);
    const batch = client().airtime.bulkPurchase(await xlsxOf(rows), {
      batchId: 'payroll-nov',
      concurrency: 8,
    });
    const events: AirtimeBulkRowOutcome[] = [];
    const progress: AirtimeBulkTotals[] = [];
    batch.on('row', (row) => events.push(row));
    batch.on('progress', (totals) => progress.push(totals));
    const result = await batch;

    expect(result.batchId).toBe('payroll-nov');
    expect(result.totals).toMatchObject({
      rows: 500,
      amount: 500_000,
      amountSucceeded: 500_000,
      succeeded: 500,
      failed: 0,
      unknown: 0,
      skipped: 0,
      sent: 500,
    });
    expect(result.rows.map((row) => row.row)).toEqual(rows.map((_, index) => index + 1));
    for (const row of result.rows) {
      expect(row).toMatchObject({
        status: 'success',
        merchantReference: `airtime:payroll-nov:${row.row}`,
        paymentReference: expect.any(String),
        reference: `staff-${row.row}`,
        fromEarlierRun: false,
      });
      const record = await store.records.get(row.merchantReference);
      expect(record).toMatchObject({
        status: 'success',
        amount: 1000,
        msisdn: row.msisdn,
        paymentReference: row.paymentReference,
        metadata: { batchId: 'payroll-nov', row: String(row.row), reference: `staff-${row.row}` },
      });
    }
    expect(events).toHaveLength(500);
    expect(progress.at(-1)).toMatchObject({ done: 500, succeeded: 500 });
    const purchases = await purchasesByMsisdn(harness);
    expect(purchases.size).toBe(500);
    expect([...purchases.values()].every((count) => count === 1)).toBe(true);
    expect(await airtimeBalance(harness)).toBe(100_000);
  }, 120_000);

  it('takes a CSV file path, and an array of rows, alike', async () => {
    await fundAirtime(harness, 10_000);
    const directory = mkdtempSync(join(tmpdir(), 'pesakit-bulk-'));
    try {
      const path = join(directory, 'airtime.csv');
      writeFileSync(path, csvOf(batchRows(3)));
      const fromFile = await client().airtime.bulkPurchase(path);
      expect(fromFile.totals).toMatchObject({ rows: 3, succeeded: 3 });
      // No batch id given: one derived from the rows (see repeat-run.test.ts).
      expect(fromFile.batchId).toMatch(/^rows-[a-z2-7]{26}$/);

      const fromArray = await client().airtime.bulkPurchase([
        { msisdn: '255684000001', amount: 500 },
        { msisdn: '255684000002', amount: 250.5 },
      ]);
      expect(fromArray.totals).toMatchObject({ rows: 2, succeeded: 2, amount: 750.5 });
      expect(await airtimeBalance(harness)).toBe(10_000 - 3000 - 750.5);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('every row is checked before anything is stored or sent', () => {
  it('reports every bad row at once, by row, line and field, and sends nothing', async () => {
    await fundAirtime(harness, 100_000);
    const rows = [
      ...batchRows(5),
      { msisdn: '0754123456', amount: 1000 },
      { msisdn: '255754000007', amount: -5 },
      { msisdn: '255754000008', amount: 'lots' },
      { msisdn: '255701123456', amount: 1000 },
    ];
    const error = (await failure(
      client().airtime.bulkPurchase(await xlsxOf(rows), { batchId: 'bad-rows' }),
    )) as BulkValidationError;
    expect(isBulkValidationError(error)).toBe(true);
    expect(isValidationError(error)).toBe(true);
    expect(error.problems).toEqual([
      expect.objectContaining({ row: 6, line: 7, field: 'msisdn' }),
      expect.objectContaining({ row: 7, line: 8, field: 'amount' }),
      expect.objectContaining({ row: 8, line: 9, field: 'amount' }),
      expect.objectContaining({ row: 9, line: 10, field: 'msisdn' }),
    ]);
    expect(Object.keys(error.errors)).toEqual([
      'rows.6.msisdn',
      'rows.7.amount',
      'rows.8.amount',
      'rows.9.msisdn',
    ]);
    expect(error.message).toMatch(/4 rows refused, nothing was stored or sent/);
    expect((await purchasesByMsisdn(harness)).size).toBe(0);
    expect(await store.records.get('airtime:bad-rows:1')).toBeUndefined();
    expect(await airtimeBalance(harness)).toBe(100_000);
  });

  it('refuses an unreadable file with a SpreadsheetError and sends nothing', async () => {
    await fundAirtime(harness, 100_000);
    const good = await xlsxOf(batchRows(20));
    const corrupt = [
      Buffer.from('this is not a spreadsheet at all \u0000\u0001\u0002'),
      good.subarray(0, Math.floor(good.length / 2)),
      Buffer.from(''),
      Buffer.from('phone,value\r\n255754000001,1000\r\n'),
    ];
    for (const bytes of corrupt) {
      const error = await failure(client().airtime.bulkPurchase(bytes, { batchId: 'corrupt' }));
      expect(isSpreadsheetError(error), String(error)).toBe(true);
    }
    expect((await purchasesByMsisdn(harness)).size).toBe(0);
    expect(await store.records.get('airtime:corrupt:1')).toBeUndefined();
  });

  it('refuses a batch id that cannot make merchant references', async () => {
    const error = await failure(
      client().airtime.bulkPurchase(batchRows(1), { batchId: 'has:colon' }),
    );
    expect(isValidationError(error)).toBe(true);
    expect((error as BulkValidationError).errors).toHaveProperty('batchId');
  });
});

describe('the wallet must cover the batch', () => {
  it('checks the balance first and refuses the batch whole: insufficient_funds, nothing stored or sent', async () => {
    await fundAirtime(harness, 4999);
    const error = await failure(
      client().airtime.bulkPurchase(batchRows(5), { batchId: 'too-much' }),
    );
    expect(isInsufficientFundsError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'bulk_insufficient_funds', balance: 4999, required: 5000 });
    expect((await purchasesByMsisdn(harness)).size).toBe(0);
    expect(await store.records.get('airtime:too-much:1')).toBeUndefined();
  });

  it('when the wallet runs out mid-batch anyway, stops: the rest is skipped and a rerun sends it', async () => {
    await fundAirtime(harness, 3000);
    const rows = batchRows(6);
    const first = await client().airtime.bulkPurchase(rows, {
      batchId: 'runs-out',
      concurrency: 1,
      checkBalance: false,
    });
    expect(first.rows.map((row) => row.status)).toEqual([
      'success',
      'success',
      'success',
      'failed',
      'skipped',
      'skipped',
    ]);
    expect(first.rows[3]?.error && isInsufficientFundsError(first.rows[3].error)).toBe(true);
    expect(first.rows[4]?.message).toMatch(/Not sent: the batch stopped at row 4/);
    expect(await store.records.get('airtime:runs-out:5')).toBeUndefined();

    await fundAirtime(harness, 10_000);
    const second = await client().airtime.bulkPurchase(rows, { batchId: 'runs-out' });
    expect(second.rows.map((row) => [row.status, row.fromEarlierRun])).toEqual([
      ['success', true],
      ['success', true],
      ['success', true],
      ['failed', true],
      ['success', false],
      ['success', false],
    ]);
    expect(second.totals).toMatchObject({ succeeded: 5, failed: 1, sent: 2 });
    const purchases = await purchasesByMsisdn(harness);
    expect([...purchases.values()].every((count) => count === 1)).toBe(true);
    expect(purchases.has(rows[3]!.msisdn)).toBe(false);
  });
});

describe('vendor failures', () => {
  it('marks rows whose number ends 999 failed with the vendor message; the batch goes on', async () => {
    await fundAirtime(harness, 100_000);
    const rows = batchRows(40, [3, 17, 40]);
    const result = await client().airtime.bulkPurchase(await xlsxOf(rows), { concurrency: 4 });
    expect(result.totals).toMatchObject({ succeeded: 37, failed: 3, amountSucceeded: 37_000 });
    for (const row of [3, 17, 40]) {
      expect(result.rows[row - 1]).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/rejected the airtime top-up/),
        paymentReference: expect.any(String),
      });
      expect((await store.records.get(`airtime:${result.batchId}:${row}`))?.status).toBe('failed');
    }
    expect(await airtimeBalance(harness)).toBe(100_000 - 37_000);
  });
});

describe('a rerun of the same batch id sends only what was never attempted', () => {
  it('a finished batch run again sends nothing: BatchAlreadyRunError reports every row as it stands', async () => {
    await fundAirtime(harness, 100_000);
    const file = await xlsxOf(batchRows(30, [7]));
    await client().airtime.bulkPurchase(file, { batchId: 'again' });
    const error = await failure(client().airtime.bulkPurchase(file, { batchId: 'again' }));
    expect(isBatchAlreadyRunError(error)).toBe(true);
    const again = (error as BatchAlreadyRunError).result;
    expect(again.totals).toMatchObject({ succeeded: 29, failed: 1, sent: 0 });
    expect(again.rows.every((row) => row.fromEarlierRun)).toBe(true);
    const purchases = await purchasesByMsisdn(harness);
    expect([...purchases.values()].every((count) => count === 1)).toBe(true);
    expect(await airtimeBalance(harness)).toBe(100_000 - 29_000);
  });

  it('reads the earlier run in one store read, not one lookup per row', async () => {
    await fundAirtime(harness, 100_000);
    const file = await xlsxOf(batchRows(30));
    await client().airtime.bulkPurchase(file, { batchId: 'one-read' });
    const reads: string[][] = [];
    const getMany = store.records.getMany.bind(store.records);
    store.records.getMany = async (references) => {
      reads.push([...references]);
      return getMany(references);
    };
    store.records.get = async (reference) => {
      throw new Error(`a lookup of ${reference}`);
    };
    const again = await failure(client().airtime.bulkPurchase(file, { batchId: 'one-read' }));
    expect((again as BatchAlreadyRunError).result.totals).toMatchObject({ succeeded: 30, sent: 0 });
    // 30 rows and the row after the last (a longer earlier file would be refused).
    expect(reads).toEqual([
      Array.from({ length: 31 }, (_, index) => `airtime:one-read:${index + 1}`),
    ]);
  });

  it('rows a crashed run left initiating or unknown are reported unknown and never resent', async () => {
    await fundAirtime(harness, 100_000);
    const rows = batchRows(8);
    // What a run killed mid-send leaves: intents written, answers never recorded.
    for (const row of [1, 2]) {
      await store.records.create({
        merchantReference: `airtime:crashed:${row}`,
        product: 'airtime',
        flow: 'airtime_purchase',
        amount: 1000,
        msisdn: rows[row - 1]!.msisdn,
        metadata: { batchId: 'crashed', row: String(row), reference: `staff-${row}` },
      });
    }
    await moves(store).transition('airtime:crashed:2', 'unknown', {
      reason: 'no response: outcome unknown',
    });
    const result = await client().airtime.bulkPurchase(rows, { batchId: 'crashed' });
    expect(result.rows.slice(0, 2)).toEqual([
      expect.objectContaining({ row: 1, status: 'unknown', fromEarlierRun: true }),
      expect.objectContaining({ row: 2, status: 'unknown', fromEarlierRun: true }),
    ]);
    expect(result.totals).toMatchObject({ succeeded: 6, unknown: 2, sent: 6 });
    const purchases = await purchasesByMsisdn(harness);
    expect(purchases.has(rows[0]!.msisdn)).toBe(false);
    expect(purchases.has(rows[1]!.msisdn)).toBe(false);
    expect(purchases.size).toBe(6);
  });

  it('refuses a different file under a used batch id, naming the row, and sends nothing', async () => {
    await fundAirtime(harness, 100_000);
    await client().airtime.bulkPurchase(batchRows(5), { batchId: 'nov' });
    const changed = batchRows(5).map((row, index) =>
      index === 2 ? { ...row, amount: 5000 } : row,
    );
    const error = (await failure(
      client().airtime.bulkPurchase(changed, { batchId: 'nov' }),
    )) as BatchMismatchError;
    expect(isBatchMismatchError(error)).toBe(true);
    expect(error.mismatches).toEqual([
      expect.objectContaining({ row: 3, stored: expect.objectContaining({ amount: 1000 }) }),
    ]);
    expect(error.message).toMatch(/Batch nov was started with other rows: row 3/);

    const shorter = await failure(client().airtime.bulkPurchase(batchRows(4), { batchId: 'nov' }));
    expect(isBatchMismatchError(shorter)).toBe(true);
    expect((await purchasesByMsisdn(harness)).size).toBe(5);
  });
});

describe('a source that is not a batch', () => {
  it('names a missing file path, and refuses an empty array, before anything is stored', async () => {
    const missing = await failure(client().airtime.bulkPurchase('/nonexistent/airtime.xlsx'));
    expect(isValidationError(missing)).toBe(true);
    expect((missing as BulkValidationError).errors['source']?.[0]).toMatch(/no such file/);
    const empty = await failure(client().airtime.bulkPurchase([]));
    expect((empty as BulkValidationError).errors['rows']?.[0]).toMatch(/no rows/);
  });
});

describe('the batch is a real Promise that keeps its events', () => {
  it('has catch and finally, and on() returns the batch', async () => {
    const batch = client().airtime.bulkPurchase([]);
    expect(batch).toBeInstanceOf(Promise);
    expect(batch.on('row', () => {})).toBe(batch);
    const caught = await batch.catch((error: unknown) => error);
    expect(isValidationError(caught)).toBe(true);
    let settled = false;
    await batch
      .finally(() => {
        settled = true;
      })
      .catch(() => {});
    expect(settled).toBe(true);
  });
});
