import { guardFor, PesakitError } from '../errors/pesakit-error.js';

/** Why a file could not be read (or an `.xlsx` written) at all; a bad row is a `BulkRowProblem`. */
export type SpreadsheetErrorCode =
  | 'corrupt_file'
  | 'too_large'
  | 'xlsx_support_missing'
  | 'unsupported_format'
  | 'missing_column'
  | 'duplicate_column'
  | 'too_many_rows'
  | 'empty_file';

/** A file pesakit cannot read as a spreadsheet, or an `.xlsx` without exceljs. Nothing was sent. */
export class SpreadsheetError extends PesakitError {
  override name = 'SpreadsheetError' as string;

  constructor(
    override readonly code: SpreadsheetErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isSpreadsheetError = guardFor(SpreadsheetError, 'SpreadsheetError');
