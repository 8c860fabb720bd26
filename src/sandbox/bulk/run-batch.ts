import type { AirtimeBulkResponse, AirtimeBulkRow } from '../../schemas/airtime-bulk.js';
import { completeAirtimePurchase } from '../airtime-purchase.js';
import type { SandboxContext } from '../context.js';
import type { Hold, Wallet } from '../ledger.js';
import { toCents, toShillings } from '../money.js';
import { airtimePaymentView } from '../state/airtime.js';

export type BatchRow = AirtimeBulkRow & { row: number };

/** Holds every row's amount in one synchronous step, or none (`undefined`) when short. */
export function holdBatch(wallet: Wallet, rows: readonly BatchRow[]): Hold[] | undefined {
  const total = rows.reduce((sum, row) => sum + toCents(row.amount), 0);
  if (total > wallet.available) return undefined;
  // The total fits what is available, so every row's reservation succeeds.
  return rows.map((row) => wallet.reserve(toCents(row.amount))!);
}

/** Runs each held row through purchase rules 4–7 in order; a vendor failure fails that row only. */
export async function runAirtimeBatch(
  context: SandboxContext,
  batch: { accountId: number; batchId: string; rows: readonly BatchRow[]; holds: readonly Hold[] },
): Promise<AirtimeBulkResponse> {
  const results: AirtimeBulkResponse['rows'] = [];
  for (const [index, row] of batch.rows.entries()) {
    // The SDK stores each row under this reference: the request log ties the row to its record.
    const merchantReference = `airtime:${batch.batchId}:${row.row}`;
    const record = await completeAirtimePurchase(context, {
      merchantReference,
      accountId: batch.accountId,
      msisdn: row.msisdn,
      amount: row.amount,
      hold: batch.holds[index]!,
    });
    results.push({
      row: row.row,
      msisdn: row.msisdn,
      amount: row.amount,
      reference: row.reference ?? null,
      merchant_reference: merchantReference,
      status: record.status === 'success' ? 'success' : 'failed',
      message: record.message,
      payment: airtimePaymentView(record),
    });
  }
  const succeeded = results.filter((result) => result.status === 'success').length;
  const failed = results.length - succeeded;
  const total = batch.rows.reduce((sum, row) => sum + toCents(row.amount), 0);
  return {
    status: 'completed',
    message: `Bulk airtime: ${results.length} rows, ${succeeded} succeeded, ${failed} failed.`,
    batch: {
      id: batch.batchId,
      rows: results.length,
      total_amount: toShillings(total),
      succeeded,
      failed,
    },
    rows: results,
  };
}
