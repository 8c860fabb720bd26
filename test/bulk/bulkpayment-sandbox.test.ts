import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import {
  type BatchAlreadyRunError,
  isBatchAlreadyRunError,
} from '../../src/resources/bulk/batch-already-run-error.js';
import { isBulkValidationError } from '../../src/resources/bulk/bulk-validation-error.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { airtimeBalance, batchRows, fundAirtime, purchasesByMsisdn, xlsxOf } from './bulk-files.js';

let harness: Harness;
let store: MemoryReferenceStore;
beforeEach(async () => {
  harness = await startHarness();
  store = new MemoryReferenceStore();
});
afterEach(() => harness.close());

describe("via 'bulkpayment' against the sandbox's customer/bulkpayment route", () => {
  it('uploads the batch once and records every row from the answer, vendor failures included', async () => {
    await fundAirtime(harness, 100_000);
    const rows = batchRows(30, [5, 20]);
    const result = await harness
      .client({ store })
      .airtime.bulkPurchase(await xlsxOf(rows), { via: 'bulkpayment', batchId: 'upload-1' });
    expect(result.totals).toMatchObject({
      rows: 30,
      succeeded: 28,
      failed: 2,
      unknown: 0,
      sent: 30,
      amountSucceeded: 28_000,
    });
    for (const row of result.rows) {
      const failing = row.row === 5 || row.row === 20;
      expect(row).toMatchObject({
        status: failing ? 'failed' : 'success',
        merchantReference: `airtime:upload-1:${row.row}`,
        paymentReference: expect.any(String),
      });
      expect(await store.records.get(row.merchantReference)).toMatchObject({
        status: row.status,
        paymentReference: row.paymentReference,
        metadata: expect.objectContaining({ via: 'bulkpayment', row: String(row.row) }),
      });
    }
    const purchases = await purchasesByMsisdn(harness);
    expect(purchases.size).toBe(30);
    expect([...purchases.values()].every((count) => count === 1)).toBe(true);
    expect(await airtimeBalance(harness)).toBe(100_000 - 28_000);

    // The same batch again, either way: nothing is sent twice.
    const rerun = await harness
      .client({ store })
      .airtime.bulkPurchase(rows, { batchId: 'upload-1' })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(isBatchAlreadyRunError(rerun)).toBe(true);
    expect((rerun as BatchAlreadyRunError).result.totals).toMatchObject({
      succeeded: 28,
      failed: 2,
      sent: 0,
    });
    expect((await purchasesByMsisdn(harness)).size).toBe(30);
    expect(await airtimeBalance(harness)).toBe(100_000 - 28_000);
  });

  it('refuses bad rows before anything is uploaded', async () => {
    await fundAirtime(harness, 100_000);
    const error = await harness
      .client({ store })
      .airtime.bulkPurchase([...batchRows(3), { msisdn: '255701000001', amount: 1000 }], {
        via: 'bulkpayment',
        batchId: 'bad',
      })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(isBulkValidationError(error)).toBe(true);
    expect((await purchasesByMsisdn(harness)).size).toBe(0);
    expect(await store.records.get('airtime:bad:1')).toBeUndefined();
  });
});
