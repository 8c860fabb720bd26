import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BulkInsufficientFundsError,
  isBulkInsufficientFundsError,
} from '../../src/errors/bulk-insufficient-funds-error.js';
import { isInsufficientFundsError } from '../../src/errors/insufficient-funds-error.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import {
  type BatchAlreadyRunError,
  isBatchAlreadyRunError,
} from '../../src/resources/bulk/batch-already-run-error.js';
import { isBatchMismatchError } from '../../src/resources/bulk/batch-mismatch-error.js';
import {
  type BulkValidationError,
  isBulkValidationError,
} from '../../src/resources/bulk/bulk-validation-error.js';
import { estimatedCharge } from '../../src/resources/bulk/payout-bulk.js';
import { failure } from '../helpers/failure.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import {
  fundPayouts,
  payoutBalance,
  payoutCsvOf,
  payoutRows,
  payoutsByMsisdn,
} from './bulk-files.js';

let harness: Harness;
let store: MemoryReferenceStore;
beforeEach(async () => {
  harness = await startHarness();
  store = new MemoryReferenceStore();
});
afterEach(() => harness.close());

const client = (overrides = {}) => harness.client({ store, ...overrides });

describe('a payout batch: every row is one disbursement.pay under payout:<batchId>:<row>', () => {
  it('pays each row of a CSV once, debiting amount plus charge, with row and progress events', async () => {
    await fundPayouts(harness, 10_000);
    const rows = payoutRows(5);
    const seen: string[] = [];
    const batch = client().disbursement.bulkPay(payoutCsvOf(rows), { batchId: 'nov-salaries' });
    batch.on('row', (row) => seen.push(row.status));
    const result = await batch;
    expect(result.stoppedFor).toBeUndefined();
    expect(result.totals).toMatchObject({ rows: 5, succeeded: 5, sent: 5, amountSucceeded: 5000 });
    expect(seen).toEqual(['success', 'success', 'success', 'success', 'success']);
    for (const row of result.rows) {
      expect(row).toMatchObject({
        status: 'success',
        name: `Staff ${row.row}`,
        merchantReference: `payout:nov-salaries:${row.row}`,
        paymentReference: expect.any(String),
      });
      expect(await store.records.get(row.merchantReference)).toMatchObject({
        product: 'disbursement',
        status: 'success',
        metadata: { batchId: 'nov-salaries', name: `Staff ${row.row}` },
      });
    }
    expect(await payoutBalance(harness)).toBe(10_000 - 5 * 1100);
    expect([...(await payoutsByMsisdn(harness)).values()]).toEqual([1, 1, 1, 1, 1]);
    // The float the rows held ended with them: nothing is reserved any more.
    expect(
      await store.wallets.recordBalance(accounts.disbursement.email, async () => 4500),
    ).toEqual({
      balance: 4500,
      reserved: 0,
    });
  });

  it('estimates the charge as the sandbox does: 1 % rounded up, at least 100 TZS', () => {
    expect([100, 10_000, 10_050.5, 250_000].map(estimatedCharge)).toEqual([100, 100, 101, 2500]);
  });
});

describe('the float is checked before anything is sent', () => {
  it('a wallet short of amounts plus charges refuses the batch with the shortfall: nothing sent or stored', async () => {
    await fundPayouts(harness, 3000);
    const error = await failure(client().disbursement.bulkPay(payoutRows(3), { batchId: 'short' }));
    expect(isBulkInsufficientFundsError(error)).toBe(true);
    expect(error as BulkInsufficientFundsError).toMatchObject({
      balance: 3000,
      required: 3300,
      shortfall: 300,
    });
    expect((await payoutsByMsisdn(harness)).size).toBe(0);
    expect(await store.records.get('payout:short:1')).toBeUndefined();
  });

  it('partial: pays rows in order while they fit, skips the rest; after a top-up the same batch id pays them', async () => {
    await fundPayouts(harness, 3500);
    const rows = payoutRows(5);
    const first = await client().disbursement.bulkPay(rows, { batchId: 'part', partial: true });
    expect(first.stoppedFor).toBe('insufficient_funds');
    expect(first.rows.map((row) => row.status)).toEqual([
      'success',
      'success',
      'success',
      'skipped',
      'skipped',
    ]);
    expect(await store.records.get('payout:part:4')).toBeUndefined();

    await fundPayouts(harness, 2000);
    const second = await client().disbursement.bulkPay(rows, { batchId: 'part' });
    expect(second.stoppedFor).toBeUndefined();
    expect(second.totals).toMatchObject({ succeeded: 5, sent: 2 });
    expect([...(await payoutsByMsisdn(harness)).values()]).toEqual([1, 1, 1, 1, 1]);
  });

  it('a charges function that is not a finite number of TZS is refused before anything is sent', async () => {
    await fundPayouts(harness, 10_000);
    const error = await failure(
      client().disbursement.bulkPay(payoutRows(2), { charges: () => Number.NaN }),
    );
    expect(error).toMatchObject({ errors: { charges: [expect.stringMatching(/returned NaN/)] } });
    expect((await payoutsByMsisdn(harness)).size).toBe(0);
  });
});

describe('the wallet runs dry mid-batch (the charge was underestimated)', () => {
  it('stops at the platform refusal with stoppedFor, rows after it untouched; a rerun after a top-up pays them', async () => {
    const rows = [...payoutRows(3), ...payoutRows(6, 1).slice(3)];
    // Estimated at 3003 TZS with no charges; the sandbox charges 100 TZS a row.
    await fundPayouts(harness, 3003);
    const options = { batchId: 'dry', concurrency: 1, charges: () => 0 };
    const first = await client().disbursement.bulkPay(rows, options);
    expect(first.stoppedFor).toBe('insufficient_funds');
    expect(first.rows.map((row) => row.status)).toEqual([
      'success',
      'success',
      'failed',
      'skipped',
      'skipped',
      'skipped',
    ]);
    expect(isInsufficientFundsError(first.rows[2]?.error)).toBe(true);
    expect(await store.records.get('payout:dry:4')).toBeUndefined();

    await fundPayouts(harness, 5000);
    const second = await client().disbursement.bulkPay(rows, options);
    expect(second.stoppedFor).toBeUndefined();
    expect(second.rows.map((row) => [row.status, row.fromEarlierRun])).toEqual([
      ['success', true],
      ['success', true],
      ['failed', true],
      ['success', false],
      ['success', false],
      ['success', false],
    ]);
    const paid = await payoutsByMsisdn(harness);
    expect([...paid.values()].every((count) => count === 1)).toBe(true);
    expect(paid.has(rows[2]!.msisdn)).toBe(false);
  });
});

describe('a rerun of the same batch id pays no row twice', () => {
  it('stopped after two rows, then an answer lost: rerun after rerun, no row is paid twice and the unknown row is never resent', async () => {
    await fundPayouts(harness, 10_000);
    const rows = payoutRows(6);
    const stop = new AbortController();
    const first = client().disbursement.bulkPay(rows, {
      batchId: 'lost',
      concurrency: 1,
      signal: stop.signal,
    });
    first.on('progress', (totals) => totals.done === 2 && stop.abort());
    expect((await first).rows.map((row) => row.status)).toEqual([
      'success',
      'success',
      ...Array(4).fill('skipped'),
    ]);
    expect((await first).stoppedFor).toBe('aborted');

    await harness.control('faults', { latencyMs: 400 });
    const options = { batchId: 'lost', concurrency: 1 };
    const second = await client().disbursement.bulkPay(rows, { ...options, timeoutMs: 150 });
    expect(second.rows.map((row) => row.status)).toEqual([
      'success',
      'success',
      'unknown',
      'skipped',
      'skipped',
      'skipped',
    ]);
    expect(second.stoppedFor).toBe('row_error');

    await harness.control('faults', { latencyMs: 0 });
    const third = await client().disbursement.bulkPay(rows, options);
    expect(third.rows.map((row) => [row.status, row.fromEarlierRun])).toEqual([
      ['success', true],
      ['success', true],
      ['unknown', true],
      ['success', false],
      ['success', false],
      ['success', false],
    ]);
    expect(third.rows[2]?.message).toMatch(/not resent.*payout history/);
    const paid = await payoutsByMsisdn(harness);
    expect([...paid.values()].every((count) => count === 1)).toBe(true);
    expect(paid.size).toBeGreaterThanOrEqual(5);
    // The unknown row still holds its float until the reconciler settles it.
    const { reserved } = await store.wallets.recordBalance(
      accounts.disbursement.email,
      async () => 0,
    );
    expect(reserved).toBe(1100);
  });

  it('a changed file under the same batch id is refused: BatchMismatchError, nothing sent', async () => {
    await fundPayouts(harness, 10_000);
    await client().disbursement.bulkPay(payoutRows(2), { batchId: 'fixed' });
    const changed = payoutRows(2).map((row) => ({ ...row, amount: 2000 }));
    const error = await failure(client().disbursement.bulkPay(changed, { batchId: 'fixed' }));
    expect(isBatchMismatchError(error)).toBe(true);
    expect((await payoutsByMsisdn(harness)).size).toBe(2);
  });
});

describe('bad rows refuse the file whole, before anything is sent', () => {
  it('lists every bad row once, naming row and column', async () => {
    await fundPayouts(harness, 100_000);
    const csv = payoutCsvOf([
      { msisdn: '255754000001', amount: 1000, name: 'Asha', reference: 'a' },
      { msisdn: '255111000002', amount: 1000, name: 'Baraka', reference: 'b' },
      { msisdn: '255754000003', amount: 0, name: 'Chausiku', reference: 'c' },
      { msisdn: '255754000004', amount: 1000, name: '', reference: 'd' },
      { msisdn: '255754000005', amount: 1000, name: 'N'.repeat(256), reference: 'e' },
      { msisdn: '255754000001', amount: 1000, name: 'Asha', reference: 'a' },
      { msisdn: '255754000007', amount: '1000 TZS', name: 'Faraji', reference: 'g' },
    ]);
    const error = await failure(client().disbursement.bulkPay(csv, { batchId: 'bad' }));
    expect(isBulkValidationError(error)).toBe(true);
    const problems = (error as BulkValidationError).problems.map((p) => [p.row, p.field]);
    expect(problems).toEqual([
      [2, 'msisdn'],
      [3, 'amount'],
      [4, 'name'],
      [5, 'name'],
      [6, 'reference'],
      [6, 'msisdn'],
      [7, 'amount'],
    ]);
    expect((error as BulkValidationError).problems[0]?.message).toMatch(/^Row 2 \(line 3\): /);
    expect((await payoutsByMsisdn(harness)).size).toBe(0);
    expect(await store.records.get('payout:bad:1')).toBeUndefined();
  });
});

describe('an answer with nothing to compare leaves the row pending', () => {
  it('reports the row pending (accepted, awaiting the payout history), not unknown and not resent', async () => {
    await fundPayouts(harness, 10_000);
    await harness.control('faults', { bareAnswers: { next: 1 } });
    const rows = payoutRows(2);
    const first = await client().disbursement.bulkPay(rows, { batchId: 'bare' });
    expect(first.rows.map((row) => row.status)).toEqual(['pending', 'success']);
    expect(first.totals).toMatchObject({ pending: 1, succeeded: 1, unknown: 0 });
    const again = await failure(client().disbursement.bulkPay(rows, { batchId: 'bare' }));
    expect(isBatchAlreadyRunError(again)).toBe(true);
    const { result } = again as BatchAlreadyRunError;
    expect(result.rows[0]).toMatchObject({ status: 'pending', fromEarlierRun: true });
    expect(result.totals).toMatchObject({ sent: 0 });
    const paid = await payoutsByMsisdn(harness);
    expect([...paid.values()]).toEqual([1, 1]);
  });
});
