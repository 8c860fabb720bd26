import { hasName, PesakitError } from '../errors/pesakit-error.js';

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

/** A file pesakit cannot read as a spreadsheet (or an `.xlsx` it cannot write without exceljs). Nothing was sent or stored. */
export class SpreadsheetError extends PesakitError {
  override name = 'SpreadsheetError' as string;

  constructor(
    readonly code: SpreadsheetErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isSpreadsheetError(error: unknown): error is SpreadsheetError {
  return error instanceof SpreadsheetError || hasName(error, 'SpreadsheetError');
}
