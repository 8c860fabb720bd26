import { ApiError, type ValidationErrorCode } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/**
 * Fields were rejected, by the platform (422) or by pesakit before sending (`source`): fix the
 * fields `errors` lists by dotted path.
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
