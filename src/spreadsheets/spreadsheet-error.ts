import { guardFor, PesakitError } from '../errors/pesakit-error.js';

/**
 * Why a spreadsheet could not be read or written at all (as opposed to a row with a bad value,
 * which is a `BulkRowProblem`): not a spreadsheet, a damaged one, one that inflates past the
 * limit, no header, no rows, more rows than the limit, or `.xlsx` without the optional exceljs
 * package installed.
 */
export type SpreadsheetErrorCode =
  | 'corrupt_file'
  | 'too_large'
  | 'xlsx_support_missing'
  | 'unsupported_format'
  | 'missing_column'
  | 'duplicate_column'
  | 'too_many_rows'
  | 'empty_file';

/**
 * A file pesakit cannot read as a spreadsheet (or an `.xlsx` it cannot write without exceljs).
 * Nothing was sent or stored; fix the file, or install exceljs.
 */
export class SpreadsheetError extends PesakitError {
  override name = 'SpreadsheetError' as string;
  override readonly code: SpreadsheetErrorCode;

  constructor(code: SpreadsheetErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export const isSpreadsheetError = guardFor(SpreadsheetError, 'SpreadsheetError');
