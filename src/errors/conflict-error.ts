import { ApiError } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/** 409: the request conflicts with the platform's state. Pull the state before resending. */
export class ConflictError extends ApiError {
  override name = 'ConflictError' as string;
  override readonly code = 'conflict' as const;
}

export const isConflictError = guardFor(ConflictError, 'ConflictError');
