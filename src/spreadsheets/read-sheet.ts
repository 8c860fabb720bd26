import { type ColumnKind, cellValue, type SheetLine } from './cells.js';
import { readCsvLines } from './csv.js';
import { detectSheetFormat, type SheetFormat, unsupportedFormat } from './sheet-format.js';
import { SpreadsheetError, type SpreadsheetErrorCode } from './spreadsheet-error.js';
import { readXlsxLines } from './xlsx.js';

/** The columns a header names, in lower case (the file may use any case and order). */
export type SheetColumns = Readonly<Record<string, ColumnKind>>;

export type SheetRow = { row: number; line: number } & Record<string, string | number>;

export interface ReadSheetOptions {
  /** The file's format; by default detected from its content (then from `fileName`). */
  format?: SheetFormat;
  /** Helps detection of an empty file, and error messages. */
  fileName?: string;
  /** The most data rows accepted (for a bulk airtime file, by default 5,000). */
  maxRows?: number;
}

/** Reads the `columns` of an `.xlsx`/`.csv` as {@link cellValue}s; does not judge the values. */
export async function readSheetRows<Row = SheetRow>(
  bytes: Uint8Array,
  columns: SheetColumns,
  { format: given, fileName, maxRows }: ReadSheetOptions & { maxRows: number },
): Promise<{ format: SheetFormat; rows: Row[] }> {
  const name = fileName === undefined ? 'The file' : `The file "${fileName}"`;
  const refuse = (code: SpreadsheetErrorCode, why: string) =>
    new SpreadsheetError(code, `${name} ${why}`);
  const needs = `it needs a header row (${Object.keys(columns).join(', ')}) and at least one row`;
  if (bytes.length === 0) throw refuse('empty_file', `is empty; ${needs}.`);
  const format = given ?? detectSheetFormat(bytes, fileName);
  if (format === undefined) throw unsupportedFormat(bytes, name);
  const { lines, truncated } =
    format === 'xlsx'
      ? await readXlsxLines(bytes, maxRows + 1, name)
      : readCsvLines(utf8(bytes, refuse), maxRows + 1);
  const [header, ...data] = lines;
  if (header === undefined) throw refuse('empty_file', `has no rows at all; ${needs}.`);
  const positions = columnPositions(header, columns);
  if (truncated)
    throw refuse('too_many_rows', `has more than ${maxRows} rows; split it into smaller files.`);
  if (data.length === 0) throw refuse('empty_file', 'has a header row but no rows under it.');
  const rows = data.map((line, index) => {
    const row: SheetRow = { row: index + 1, line: line.line };
    for (const [column, kind] of Object.entries(columns)) {
      const at = positions.get(column);
      const value = at === undefined ? undefined : cellValue(line.cells[at], kind);
      if (value !== undefined) row[column] = value as string | number;
      else if (kind !== 'optional text') row[column] = '';
    }
    return row;
  });
  return { format, rows: rows as Row[] };
}

/** A text file is read only as UTF-8: another encoding would change names and references. */
function utf8(bytes: Uint8Array, refuse: (code: 'unsupported_format', why: string) => Error) {
  const why = 'is text but not UTF-8 (perhaps Windows-1252). Save it as "CSV UTF-8" or as .xlsx.';
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refuse('unsupported_format', why);
  }
}

/** Where each column is in the header; refuses a column named twice or a required one missing. */
function columnPositions(header: SheetLine, columns: SheetColumns): Map<string, number> {
  const positions = new Map<string, number>();
  const at = `The header (line ${header.line}) has`;
  header.cells.forEach((cell, index) => {
    const title = typeof cell === 'string' ? cell.trim().toLowerCase() : '';
    const previous = positions.get(title);
    if (previous !== undefined) {
      const letters = `${columnLetter(previous)} and ${columnLetter(index)}`;
      throw new SpreadsheetError(
        'duplicate_column',
        `${at} two "${title}" columns (${letters}); keep one.`,
      );
    }
    if (Object.hasOwn(columns, title)) positions.set(title, index);
  });
  const names = Object.keys(columns);
  const required = names.filter((column) => columns[column] !== 'optional text');
  const missing = required.filter((column) => !positions.has(column));
  if (missing.length === 0) return positions;
  const optional = names.filter((column) => !required.includes(column));
  const found = header.cells.filter((cell) => cell !== null && cell !== '');
  throw new SpreadsheetError(
    'missing_column',
    `${at} no ${missing.map((column) => `"${column}"`).join(' or ')} column; the first row must name the columns ${required.join(', ')}${optional.map((column) => ` and optionally ${column}`).join('')} (found: ${found.map((title) => `"${title}"`).join(', ') || 'nothing'}).`,
  );
}

/** A column's letter as a spreadsheet shows it (0 → A, 26 → AA); CSV columns read the same. */
function columnLetter(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}
