import { ApiError } from './api-error.js';
import { hasName } from './pesakit-error.js';

/** 5xx: the platform failed. Safe reads were already retried; a money-moving call that gets a 5xx was not retried. */
export class ServerError extends ApiError {
  override name = 'ServerError' as string;
  override readonly code = 'server_error' as const;
}

export function isServerError(error: unknown): error is ServerError {
  return error instanceof ServerError || hasName(error, 'ServerError');
}
