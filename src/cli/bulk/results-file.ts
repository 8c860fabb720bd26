import { writeFile } from 'node:fs/promises';
import type { BulkResult } from '../../resources/bulk/types.js';
import { type SheetFormat, writeSheet } from '../../spreadsheets/index.js';
import { loadExcelJs } from '../../spreadsheets/xlsx.js';
import { UsageError } from '../reconcile/usage-error.js';

export const resultsHeader = [
  'row',
  'msisdn',
  'amount',
  'reference',
  'status',
  'merchant_reference',
  'payment_reference',
  'message',
];

/** `--out`'s format, by its extension; anything else is refused before the batch runs. */
export function resultsFormat(path: string): SheetFormat {
  const lower = path.toLowerCase();
  if (lower.endsWith('.xlsx')) return 'xlsx';
  if (lower.endsWith('.csv')) return 'csv';
  throw new UsageError(`--out ${path}: name a .xlsx or .csv file.`);
}

/** Refuses up front a results file that could not be written (no exceljs for `.xlsx`). */
export async function checkResultsFile(path: string): Promise<void> {
  if (resultsFormat(path) === 'xlsx') await loadExcelJs();
}

/**
 * One line per row (payouts add the payee's `name` after the amount); `writeSheet` keeps outside
 * text that starts like a formula as text.
 */
export async function writeResultsFile(
  path: string,
  result: BulkResult,
  product: 'airtime' | 'disbursement' = 'airtime',
): Promise<void> {
  const payouts = product === 'disbursement';
  const header = payouts
    ? [...resultsHeader.slice(0, 3), 'name', ...resultsHeader.slice(3)]
    : resultsHeader;
  const rows = result.rows.map((row) => [
    row.row,
    row.msisdn,
    row.amount,
    ...(payouts ? [row.name ?? null] : []),
    row.reference ?? null,
    row.status,
    row.merchantReference,
    row.paymentReference ?? null,
    row.message ?? null,
  ]);
  await writeFile(path, await writeSheet(resultsFormat(path), header, rows));
}
