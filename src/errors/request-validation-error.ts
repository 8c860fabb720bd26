import { type FieldErrors, summarizeFieldErrors } from '../schemas/error-body.js';
import { hasName, PesakitError } from './pesakit-error.js';

/**
 * The SDK refused to send a request whose fields the platform would reject. Nothing was sent
 * and nothing was stored. `errors` has the platform's own shape: dotted field path → messages.
 */
export class RequestValidationError extends PesakitError {
  override name = 'RequestValidationError' as string;
  readonly errors: FieldErrors;
  readonly operation: string;

  constructor(operation: string, errors: FieldErrors) {
    super(`${operation}: ${summarizeFieldErrors(errors)} Nothing was sent.`);
    this.errors = errors;
    this.operation = operation;
  }
}

export function isRequestValidationError(error: unknown): error is RequestValidationError {
  return error instanceof RequestValidationError || hasName(error, 'RequestValidationError');
}
