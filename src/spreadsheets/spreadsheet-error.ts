import { hasName, PesakitError } from '../errors/pesakit-error.js';

/**
 * Why a spreadsheet could not be read at all (as opposed to a row with a bad value, which is a
 * `BulkRowProblem`): not a spreadsheet, a damaged one, no header, no rows, or more rows than
 * the limit.
 */
export type SpreadsheetErrorCode =
  | 'corrupt_file'
  | 'unsupported_format'
  | 'missing_column'
  | 'duplicate_column'
  | 'too_many_rows'
  | 'empty_file';

/** A file pesakit cannot read as a spreadsheet. Nothing was sent or stored; fix the file. */
export class SpreadsheetError extends PesakitError {
  override name = 'SpreadsheetError' as string;
  override readonly code: SpreadsheetErrorCode;

  constructor(code: SpreadsheetErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isSpreadsheetError(error: unknown): error is SpreadsheetError {
  return error instanceof SpreadsheetError || hasName(error, 'SpreadsheetError');
}
