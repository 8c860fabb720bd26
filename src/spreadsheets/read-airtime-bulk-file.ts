import { AIRTIME_BULK_MAX_ROWS, type AirtimeBulkRow } from '../schemas/airtime-bulk.js';
import { type ReadSheetOptions, readSheetRows } from './read-sheet.js';
import type { SheetFormat } from './sheet-format.js';

/** A bulk row given in code (an array source): the values a purchase takes, plus a label. */
export type AirtimeBulkRowInput = AirtimeBulkRow;

/**
 * A data row as read from a file, before its values are judged. `row` counts data rows from 1
 * (the first row under the header); `line` is where it is in the file (the sheet's row number,
 * or the CSV line). `amount` is text when the cell held text that is not a plain number.
 */
export interface ParsedAirtimeBulkRow {
  row: number;
  line: number;
  msisdn: string;
  amount: number | string;
  reference?: string;
}

export interface ParsedAirtimeBulkFile {
  format: SheetFormat;
  rows: ParsedAirtimeBulkRow[];
}

/** `maxRows` defaults to AIRTIME_BULK_MAX_ROWS (5,000). */
export type ReadAirtimeBulkFileOptions = ReadSheetOptions;

/**
 * Reads a bulk airtime file (`.xlsx` or `.csv`): a header row naming the columns `msisdn`,
 * `amount` and optionally `reference` (any case, any order; other columns are ignored), then
 * one row per purchase. Blank rows are skipped. Throws a {@link SpreadsheetError} for a file it
 * cannot read; does not judge the values — run {@link validateAirtimeBulkRows} on the rows.
 *
 * @example
 * const { rows } = await readAirtimeBulkFile(await readFile('staff.xlsx'));
 * const { problems } = validateAirtimeBulkRows(rows);
 */
export function readAirtimeBulkFile(
  bytes: Uint8Array,
  options: ReadAirtimeBulkFileOptions = {},
): Promise<ParsedAirtimeBulkFile> {
  const columns = { msisdn: 'text', amount: 'number', reference: 'optional text' } as const;
  const maxRows = options.maxRows ?? AIRTIME_BULK_MAX_ROWS;
  return readSheetRows<ParsedAirtimeBulkRow>(bytes, columns, { ...options, maxRows });
}
