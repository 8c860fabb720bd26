import { AIRTIME_BULK_MAX_ROWS } from '../schemas/airtime-bulk.js';
import { amountFromCell, msisdnFromCell, referenceFromCell } from './airtime-bulk-cells.js';
import { readCsvLines } from './csv.js';
import { detectSheetFormat, isLegacyXls, type SheetFormat } from './sheet-format.js';
import type { SheetCell, SheetLine } from './sheet-table.js';
import { SpreadsheetError } from './spreadsheet-error.js';
import { readXlsxLines } from './xlsx.js';

/** A bulk row given in code (an array source): the values a purchase takes, plus a label. */
export interface AirtimeBulkRowInput {
  msisdn: string;
  amount: number;
  reference?: string;
}

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

export interface ReadAirtimeBulkFileOptions {
  /** The file's format; by default detected from its content (then from `fileName`). */
  format?: SheetFormat;
  /** Helps detection of an empty file, and error messages. */
  fileName?: string;
  /** The most data rows accepted. @default AIRTIME_BULK_MAX_ROWS (5,000) */
  maxRows?: number;
}

const COLUMNS = ['msisdn', 'amount', 'reference'] as const;
type Column = (typeof COLUMNS)[number];

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
export async function readAirtimeBulkFile(
  bytes: Uint8Array,
  options: ReadAirtimeBulkFileOptions = {},
): Promise<ParsedAirtimeBulkFile> {
  const maxRows = options.maxRows ?? AIRTIME_BULK_MAX_ROWS;
  const name = options.fileName === undefined ? 'The file' : `The file "${options.fileName}"`;
  if (bytes.length === 0) {
    throw new SpreadsheetError(
      'empty_file',
      `${name} is empty; it needs a header row (msisdn, amount, reference) and at least one row.`,
    );
  }
  const format = options.format ?? detectSheetFormat(bytes, options.fileName);
  if (format === undefined) throw unsupported(bytes, name);
  // One line more than the rows: the header.
  const { lines, truncated } =
    format === 'xlsx'
      ? await readXlsxLines(bytes, maxRows + 1, name)
      : readCsvLines(decodeUtf8(bytes, name), maxRows + 1);
  const [header, ...data] = lines;
  if (header === undefined) {
    throw new SpreadsheetError(
      'empty_file',
      `${name} has no rows at all; it needs a header row (msisdn, amount, reference) and at least one row.`,
    );
  }
  const columns = columnsOf(header);
  if (truncated) {
    throw new SpreadsheetError(
      'too_many_rows',
      `${name} has more than ${maxRows} rows, the most one bulk send takes; split it into files of at most ${maxRows} rows.`,
    );
  }
  if (data.length === 0) {
    throw new SpreadsheetError(
      'empty_file',
      `${name} has a header row but no rows under it; add one row per purchase.`,
    );
  }
  return {
    format,
    rows: data.map((line, index) => rowOf(line, index + 1, columns)),
  };
}

function rowOf(
  line: SheetLine,
  row: number,
  columns: Readonly<Record<Column, number | undefined>>,
): ParsedAirtimeBulkRow {
  const cell = (column: Column): SheetCell | undefined =>
    columns[column] === undefined ? undefined : (line.cells[columns[column]] ?? null);
  const msisdn = msisdnFromCell(cell('msisdn'));
  const amount = amountFromCell(cell('amount'));
  const reference = referenceFromCell(cell('reference'));
  return {
    row,
    line: line.line,
    msisdn: msisdn === null || msisdn === undefined ? '' : String(msisdn),
    amount:
      typeof amount === 'number'
        ? amount
        : amount === undefined || amount === null
          ? ''
          : String(amount),
    ...(reference === undefined ? {} : { reference: String(reference) }),
  };
}

function columnsOf(header: SheetLine): Record<Column, number | undefined> {
  const columns: Record<Column, number | undefined> = {
    msisdn: undefined,
    amount: undefined,
    reference: undefined,
  };
  header.cells.forEach((cell, index) => {
    const title = typeof cell === 'string' ? cell.trim().toLowerCase() : undefined;
    const column = COLUMNS.find((name) => name === title);
    if (column === undefined) return;
    const previous = columns[column];
    if (previous !== undefined) {
      throw new SpreadsheetError(
        'duplicate_column',
        `The header (line ${header.line}) has two "${column}" columns (${columnName(previous)} and ${columnName(index)}); keep one.`,
      );
    }
    columns[column] = index;
  });
  const missing = COLUMNS.filter((name) => name !== 'reference' && columns[name] === undefined);
  if (missing.length > 0) {
    const found = header.cells.filter((cell) => cell !== null && cell !== '').map(String);
    throw new SpreadsheetError(
      'missing_column',
      `The header (line ${header.line}) has no ${missing.map((name) => `"${name}"`).join(' or ')} column; the first row must name the columns msisdn, amount and optionally reference (found: ${found.length > 0 ? found.map((title) => `"${title}"`).join(', ') : 'nothing'}).`,
    );
  }
  return columns;
}

/** A column's letter as a spreadsheet shows it (0 → A, 26 → AA); CSV columns read the same. */
function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

function decodeUtf8(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new SpreadsheetError(
      'unsupported_format',
      `${name} is text but not UTF-8 (perhaps Windows-1252). Save it as "CSV UTF-8" or as .xlsx.`,
      { cause: error },
    );
  }
}

function unsupported(bytes: Uint8Array, name: string): SpreadsheetError {
  if (isLegacyXls(bytes)) {
    return new SpreadsheetError(
      'unsupported_format',
      `${name} is an Excel 97–2003 .xls workbook, which is not read; save it as .xlsx (Excel Workbook) or CSV UTF-8.`,
    );
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return new SpreadsheetError(
      'unsupported_format',
      `${name} is UTF-16 text; save it as "CSV UTF-8" or as .xlsx.`,
    );
  }
  return new SpreadsheetError(
    'unsupported_format',
    `${name} is neither an .xlsx workbook nor CSV text (its content is binary, such as an image or a PDF); upload the spreadsheet as .xlsx or .csv.`,
  );
}
