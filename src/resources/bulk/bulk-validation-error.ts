import { guardFor } from '../../errors/pesakit-error.js';
import { RequestValidationError } from '../../errors/request-validation-error.js';
import { type BulkRowProblem, bulkRowFieldErrors } from '../../spreadsheets/index.js';

export type { BulkRowProblem };

/**
 * Batch rows refused before anything was stored or sent: every bad row at once in `problems`
 * (and `errors` under `rows.<row>.<field>`), so a spreadsheet is fixed in one pass.
 */
export class BulkValidationError extends RequestValidationError {
  override name = 'BulkValidationError' as string;
  override readonly code = 'bulk_validation' as const;
  readonly problems: readonly BulkRowProblem[];

  constructor(operation: string, problems: readonly BulkRowProblem[]) {
    super(operation, bulkRowFieldErrors(problems));
    this.problems = problems;
    const rows = new Set(problems.map((problem) => problem.row)).size;
    this.message =
      `${operation}: ${rows} row${rows === 1 ? '' : 's'} refused, nothing was stored or ` +
      `sent. Fix them and run the batch again: ${problems
        .slice(0, 5)
        .map((problem) => problem.message)
        .join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`;
  }
}

export const isBulkValidationError = guardFor(BulkValidationError, 'BulkValidationError');
