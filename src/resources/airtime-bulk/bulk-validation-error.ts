import { guardFor } from '../../errors/pesakit-error.js';
import { RequestValidationError } from '../../errors/request-validation-error.js';
import { type BulkRowProblem, bulkRowFieldErrors } from '../../spreadsheets/index.js';

export type { BulkRowProblem };

/**
 * Rows of a bulk batch were refused before anything was stored or sent: every bad row is
 * listed at once in `problems` (and in `errors` under `rows.<row>.<field>`, the key the
 * platform's bulkpayment 422 uses), so a spreadsheet is fixed in one pass. It is a
 * `RequestValidationError` (`source: 'client'`), so `isValidationError` covers it.
 */
export class BulkValidationError extends RequestValidationError {
  override name = 'BulkValidationError' as string;
  readonly problems: readonly BulkRowProblem[];

  constructor(problems: readonly BulkRowProblem[]) {
    super('airtimeBulkPurchase', bulkRowFieldErrors(problems));
    this.problems = problems;
    const rows = new Set(problems.map((problem) => problem.row)).size;
    this.message =
      `airtimeBulkPurchase: ${rows} row${rows === 1 ? '' : 's'} refused, nothing was stored or ` +
      `sent. Fix them and run the batch again: ${problems
        .slice(0, 5)
        .map((problem) => problem.message)
        .join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`;
  }
}

export const isBulkValidationError = guardFor(BulkValidationError, 'BulkValidationError');
