import { type FieldErrors, summarizeFieldErrors } from '../schemas/error-body.js';
import { guardFor } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';
import { ValidationError } from './validation-error.js';

/**
 * pesakit refused a request whose fields the platform would reject; nothing was sent or stored.
 * Fix the fields in `errors` (a `ValidationError` with `source: 'client'`).
 */
export class RequestValidationError extends ValidationError {
  override name = 'RequestValidationError' as string;
  override readonly code: 'request_validation' | 'bulk_validation' = 'request_validation';
  override readonly source = 'client' as const;
  /** The endpoint (or store operation) whose input was refused: `initiateMno`. */
  readonly operation: string;

  /** `request` names the call when it is known; otherwise `method` and `path` are empty. */
  constructor(operation: string, errors: FieldErrors, request?: RequestInfo) {
    const summary = summarizeFieldErrors(errors);
    super(`${operation}: ${summary} Nothing was sent.`, {
      status: 422,
      body: { message: summary, errors, code: 'request_validation' },
      headers: new Headers(),
      method: request?.method ?? '',
      path: request?.path ?? '',
    });
    this.operation = operation;
  }
}

export const isRequestValidationError = guardFor(RequestValidationError, 'RequestValidationError');
