import { ApiError } from './api-error.js';
import { hasName } from './pesakit-error.js';

/** 404: no such route, transaction, control number or provider. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError' as string;
  override readonly code = 'not_found' as const;
}

export function isNotFoundError(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError || hasName(error, 'NotFoundError');
}
