import { writeFile } from 'node:fs/promises';
import type { AirtimeBulkResult } from '../../resources/airtime-bulk/types.js';
import { type SheetFormat, writeSheet } from '../../spreadsheets/index.js';
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

/** Writes one line per row: what was asked, what happened, and the references to trace it. */
export async function writeResultsFile(path: string, result: AirtimeBulkResult): Promise<void> {
  const rows = result.rows.map((row) => [
    row.row,
    row.msisdn,
    row.amount,
    row.reference ?? null,
    row.status,
    row.merchantReference,
    row.paymentReference ?? null,
    row.message === undefined ? null : inertText(row.message),
  ]);
  await writeFile(path, await writeSheet(resultsFormat(path), resultsHeader, rows));
}

/**
 * The message is the platform's (or the vendor's) text, opened later in a spreadsheet program:
 * text starting with `=`, `+`, `-`, `@` or a control character would be run there as a formula
 * (CSV injection). A leading `'` keeps it text; the other columns are ours or the merchant's own.
 */
export function inertText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
