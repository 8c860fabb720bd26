import { readFile, stat } from 'node:fs/promises';
import {
  isRequestValidationError,
  RequestValidationError,
} from '../../errors/request-validation-error.js';
import type { SheetFormat } from '../../spreadsheets/index.js';
import { readSheetRows } from '../../spreadsheets/read-sheet.js';
import type { BulkProduct, BulkRow, UncheckedRow } from './bulk-product.js';
import { BulkValidationError } from './bulk-validation-error.js';

/** What a bulk send takes: rows, a file path, or the bytes of an .xlsx/.csv file. */
export type BulkSource = readonly object[] | string | Uint8Array;

/**
 * Reads and checks every row before anything is stored or sent. A file that cannot be read is a
 * SpreadsheetError; bad rows are one BulkValidationError listing them all.
 */
export async function loadRows(
  product: BulkProduct,
  source: BulkSource,
  format: SheetFormat | undefined,
): Promise<BulkRow[]> {
  if (Array.isArray(source)) return checked(product, numbered(product, source));
  const refuse = (why: string) => new RequestValidationError(product.operation, { source: [why] });
  let bytes: Uint8Array;
  let name: string | undefined;
  if (typeof source === 'string') {
    name = source;
    const size = await fileSize(source, refuse);
    if (size > product.maxFileBytes) throw refuse(tooBig(size, product.maxFileBytes));
    bytes = await readFile(source);
  } else if (source instanceof Uint8Array) {
    if (source.byteLength > product.maxFileBytes) {
      throw refuse(tooBig(source.byteLength, product.maxFileBytes));
    }
    bytes = source;
  } else {
    throw refuse('The source must be an array of rows, a file path, or a Buffer of .xlsx/.csv.');
  }
  const parsed = await readSheetRows<UncheckedRow>(bytes, product.columns, {
    maxRows: product.maxRows,
    ...(format !== undefined ? { format } : {}),
    ...(name !== undefined ? { fileName: name } : {}),
  });
  return checked(product, parsed.rows);
}

async function fileSize(path: string, refuse: (why: string) => Error): Promise<number> {
  try {
    const stats = await stat(path);
    if (stats.isFile()) return stats.size;
    // There is something at the path, so "no such file" would send the merchant looking for it.
    const what = stats.isDirectory() ? 'a directory, not a file' : 'not a regular file';
    throw refuse(`${path}: ${what}. Give the path of an .xlsx or .csv file.`);
  } catch (error) {
    if (isRequestValidationError(error)) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  throw refuse(`${path}: no such file. Give the path of an .xlsx or .csv file.`);
}

function numbered(product: BulkProduct, rows: readonly object[]): UncheckedRow[] {
  const refuse = (why: string) => new RequestValidationError(product.operation, { rows: [why] });
  if (rows.length === 0) throw refuse('The batch has no rows.');
  if (rows.length > product.maxRows) {
    throw refuse(`A batch holds at most ${product.maxRows} rows; this one has ${rows.length}.`);
  }
  // Rows built in code are checked like rows read from a file: a caller's typo (a number
  // for the msisdn, a missing amount) is a BulkValidationError naming the row.
  return rows.map((row, index) => {
    const cells = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    const given: Record<string, unknown> = { row: index + 1 };
    for (const column of Object.keys(product.columns)) {
      if (cells[column] !== undefined) given[column] = cells[column];
    }
    return given as UncheckedRow;
  });
}

function checked(product: BulkProduct, rows: readonly UncheckedRow[]): BulkRow[] {
  const { rows: valid, problems } = product.validate(rows);
  if (problems.length > 0) throw new BulkValidationError(product.operation, problems);
  return valid;
}

function tooBig(size: number, max: number): string {
  const mib = Math.round((max / 1024 / 1024) * 10) / 10;
  return `The file is ${size} bytes; a batch file holds at most ${max} bytes (${mib} MiB). Split it into several batches.`;
}
