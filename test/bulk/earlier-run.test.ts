import { describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { airtimeBulkRows } from '../../src/resources/bulk/airtime-bulk.js';
import { isBatchMismatchError } from '../../src/resources/bulk/batch-mismatch-error.js';
import type { BulkRow } from '../../src/resources/bulk/bulk-product.js';
import { readEarlierRun } from '../../src/resources/bulk/earlier-run.js';
import { rowMetadata } from '../../src/resources/bulk/row-outcome.js';
import { failure } from '../helpers/failure.js';

// The store answers at most 1,000 references a read: a batch longer than that is read in parts,
// and a row past the first part must still be found, or a rerun would pay it twice.
const rows: BulkRow[] = Array.from({ length: 2_500 }, (_, index) => ({
  row: index + 1,
  msisdn: `25575${String(index + 1).padStart(7, '0')}`,
  amount: 1000,
}));

async function storeWith(stored: readonly BulkRow[]): Promise<MemoryReferenceStore> {
  const store = new MemoryReferenceStore();
  for (const row of stored) {
    await store.records.create({
      merchantReference: `airtime:long:${row.row}`,
      product: 'airtime',
      flow: 'airtime_purchase',
      amount: row.amount,
      msisdn: row.msisdn,
      metadata: rowMetadata('long', row),
    });
  }
  return store;
}

describe('the earlier run of a batch longer than one store read', () => {
  it('finds every stored row, in each part of the batch', async () => {
    const stored = rows.filter((row) => row.row % 7 === 0 || row.row >= 2_400);
    const store = await storeWith(stored);
    const reads: number[] = [];
    const getMany = store.records.getMany.bind(store.records);
    store.records.getMany = async (references) => {
      reads.push(references.length);
      return getMany(references);
    };
    const earlier = await readEarlierRun(store, airtimeBulkRows, 'long', rows);
    expect([...earlier.keys()].sort((a, b) => a - b)).toEqual(stored.map((row) => row.row));
    // 2,500 rows and the row after the last.
    expect(reads).toEqual([1000, 1000, 501]);
  });

  it('refuses the batch when the store holds a row past the end of a long file', async () => {
    const store = await storeWith([{ row: 2_501, msisdn: '255754000001', amount: 1000 }]);
    const error = await failure(readEarlierRun(store, airtimeBulkRows, 'long', rows));
    expect(isBatchMismatchError(error)).toBe(true);
  });

  it('refuses the batch when a row in a later part differs from the file', async () => {
    const store = await storeWith([{ ...rows[1_700]!, amount: 2000 }]);
    const error = await failure(readEarlierRun(store, airtimeBulkRows, 'long', rows));
    expect(isBatchMismatchError(error)).toBe(true);
    expect(error).toMatchObject({ mismatches: [{ row: 1_701 }] });
  });
});
