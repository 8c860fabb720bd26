import { ApiError } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/** 404: no such route, transaction, control number or provider. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError' as string;
  override readonly code = 'not_found' as const;
}

export const isNotFoundError = guardFor(NotFoundError, 'NotFoundError');
