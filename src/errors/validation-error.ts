import { ApiError, type ValidationErrorCode } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/**
 * Fields were rejected. `errors` maps each field's dotted path (`data.amount`) to its messages,
 * as Laravel reports them. `source` tells who refused: `'platform'` (it answered 422) or
 * `'client'` (pesakit refused before sending: a `RequestValidationError`, nothing sent or
 * stored). One `isValidationError` check covers both.
 */
export class ValidationError extends ApiError {
  override name = 'ValidationError' as string;
  override readonly code: ValidationErrorCode = 'validation_error';
  /** Who refused the fields: the platform (a 422 answer) or pesakit, before sending. */
  readonly source: 'platform' | 'client' = 'platform';

  get errors(): Record<string, string[]> {
    return this.fieldErrors;
  }
}

export const isValidationError = guardFor(
  ValidationError,
  'ValidationError',
  'InsufficientFundsError',
  'RequestValidationError',
);
