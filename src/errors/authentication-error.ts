import { ApiError } from './api-error.js';
import { hasName } from './pesakit-error.js';

/** 401: the token is missing, invalid or revoked, the credentials are wrong, or the account is blocked from logging in (disbursement status `unverified` or `rejected`). */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError' as string;
  override readonly code = 'authentication_error' as const;
}

export function isAuthenticationError(error: unknown): error is AuthenticationError {
  return error instanceof AuthenticationError || hasName(error, 'AuthenticationError');
}
