import { ApiError } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/** 5xx: the platform failed. Safe reads were already retried; a money-moving call that gets a 5xx was not retried. */
export class ServerError extends ApiError {
  override name = 'ServerError' as string;
  override readonly code = 'server_error' as const;
}

export const isServerError = guardFor(ServerError, 'ServerError');
