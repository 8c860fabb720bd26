import { readFile, stat } from 'node:fs/promises';
import {
  isRequestValidationError,
  RequestValidationError,
} from '../../errors/request-validation-error.js';
import {
  AIRTIME_BULK_MAX_FILE_BYTES,
  AIRTIME_BULK_MAX_ROWS,
  type AirtimeBulkRow,
} from '../../schemas/airtime-bulk.js';
import {
  readAirtimeBulkFile,
  type SheetFormat,
  validateAirtimeBulkRows,
} from '../../spreadsheets/index.js';
import { BulkValidationError } from './bulk-validation-error.js';
import type { AirtimeBulkRowInput } from './types.js';

/** What `bulkPurchase` takes: rows, a file path, or the bytes of an .xlsx/.csv file. */
export type AirtimeBulkSource = readonly AirtimeBulkRowInput[] | string | Uint8Array;

/** A valid row with its 1-based position. */
export type NumberedRow = AirtimeBulkRow & { row: number };

/** The batch's rows, each checked. */
export interface LoadedBatch {
  rows: NumberedRow[];
}

/**
 * Reads and checks every row before anything is stored or sent. A file that cannot be read is a
 * SpreadsheetError; bad rows are one BulkValidationError listing them all.
 */
export async function loadRows(
  source: AirtimeBulkSource,
  format: SheetFormat | undefined,
): Promise<LoadedBatch> {
  if (Array.isArray(source)) return { rows: checked(numbered(source)) };
  let bytes: Uint8Array;
  let name: string | undefined;
  if (typeof source === 'string') {
    name = source;
    const size = await fileSize(source);
    if (size > AIRTIME_BULK_MAX_FILE_BYTES) throw tooBig(size);
    bytes = await readFile(source);
  } else if (source instanceof Uint8Array) {
    if (source.byteLength > AIRTIME_BULK_MAX_FILE_BYTES) throw tooBig(source.byteLength);
    bytes = source;
  } else {
    throw new RequestValidationError('airtimeBulkPurchase', {
      source: ['The source must be an array of rows, a file path, or a Buffer of .xlsx/.csv.'],
    });
  }
  const parsed = await readAirtimeBulkFile(bytes, {
    ...(format !== undefined ? { format } : {}),
    ...(name !== undefined ? { fileName: name } : {}),
  });
  return { rows: checked(parsed.rows) };
}

async function fileSize(path: string): Promise<number> {
  try {
    const stats = await stat(path);
    if (stats.isFile()) return stats.size;
    // There is something at the path, so "no such file" would send the merchant looking for it.
    throw new RequestValidationError('airtimeBulkPurchase', {
      source: [
        `${path}: ${stats.isDirectory() ? 'a directory, not a file' : 'not a regular file'}. Give the path of an .xlsx or .csv file.`,
      ],
    });
  } catch (error) {
    if (isRequestValidationError(error)) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  throw new RequestValidationError('airtimeBulkPurchase', {
    source: [`${path}: no such file. Give the path of an .xlsx or .csv file.`],
  });
}

function numbered(rows: readonly AirtimeBulkRowInput[]) {
  if (rows.length === 0) {
    throw new RequestValidationError('airtimeBulkPurchase', {
      rows: ['The batch has no rows.'],
    });
  }
  if (rows.length > AIRTIME_BULK_MAX_ROWS) {
    throw new RequestValidationError('airtimeBulkPurchase', {
      rows: [`A batch holds at most ${AIRTIME_BULK_MAX_ROWS} rows; this one has ${rows.length}.`],
    });
  }
  // Rows built in code are checked like rows read from a file: a caller's typo (a number
  // for the msisdn, a missing amount) is a BulkValidationError naming the row.
  return rows.map((row, index) => {
    const cells = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    return {
      row: index + 1,
      msisdn: cells['msisdn'],
      amount: cells['amount'],
      ...(cells['reference'] !== undefined ? { reference: cells['reference'] } : {}),
    };
  });
}

function checked(rows: Parameters<typeof validateAirtimeBulkRows>[0]): NumberedRow[] {
  const { rows: valid, problems } = validateAirtimeBulkRows(rows);
  if (problems.length > 0) throw new BulkValidationError(problems);
  return valid;
}

function tooBig(size: number): RequestValidationError {
  return new RequestValidationError('airtimeBulkPurchase', {
    source: [
      `The file is ${size} bytes; a batch file holds at most ${AIRTIME_BULK_MAX_FILE_BYTES} bytes ` +
        '(5 MiB). Split it into several batches.',
    ],
  });
}
