import { ApiError } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/** 403: authenticated, but not allowed — for airtime, an account that is not yet `active`. */
export class PermissionError extends ApiError {
  override name = 'PermissionError' as string;
  override readonly code = 'permission_denied' as const;
}

export const isPermissionError = guardFor(PermissionError, 'PermissionError');
