import { type FieldErrors, summarizeFieldErrors } from '../schemas/error-body.js';
import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * A reference store refused an operation because an argument broke a rule (an empty merchant
 * reference, a negative amount, an unknown status...). Nothing was changed. `errors` maps each
 * field to its messages, in the same shape as the platform's own validation errors.
 */
export class StoreInputError extends PesakitError {
  override name = 'StoreInputError' as string;
  override readonly code = 'store_input' as const;
  readonly operation: string;
  readonly errors: FieldErrors;

  constructor(operation: string, errors: FieldErrors) {
    super(`${operation}: ${summarizeFieldErrors(errors)} Nothing was changed.`);
    this.operation = operation;
    this.errors = errors;
  }
}

export const isStoreInputError = guardFor(StoreInputError, 'StoreInputError');
