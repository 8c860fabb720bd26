import { ApiError } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/** 401: the token is missing, invalid or revoked, the credentials are wrong, or the account is blocked from logging in (disbursement status `unverified` or `rejected`). */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError' as string;
  override readonly code = 'authentication_error' as const;
}

export const isAuthenticationError = guardFor(AuthenticationError, 'AuthenticationError');
