import { ApiError } from './api-error.js';
import { hasName } from './pesakit-error.js';

/**
 * 422: the platform rejected the request's fields. `errors` maps each field's dotted path
 * (`data.amount`) to its messages, as Laravel reports them.
 */
export class ValidationError extends ApiError {
  override name = 'ValidationError' as string;

  get errors(): Record<string, string[]> {
    return this.fieldErrors;
  }
}

export function isValidationError(error: unknown): error is ValidationError {
  return (
    error instanceof ValidationError || hasName(error, 'ValidationError', 'InsufficientFundsError')
  );
}
