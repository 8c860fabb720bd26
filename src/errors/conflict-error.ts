import { ApiError } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/**
 * 409: the request conflicts with the platform's state — the same thing was already done, or
 * is being done. Pull the current state (status, list) before deciding to send anything again.
 */
export class ConflictError extends ApiError {
  override name = 'ConflictError' as string;
  override readonly code = 'conflict' as const;
}

export const isConflictError = guardFor(ConflictError, 'ConflictError');
