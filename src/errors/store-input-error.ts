import { type FieldErrors, summarizeFieldErrors } from '../schemas/error-body.js';
import { guardFor, PesakitError } from './pesakit-error.js';

/** A store refused an argument that broke a rule; nothing changed. Fix the fields in `errors`. */
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
