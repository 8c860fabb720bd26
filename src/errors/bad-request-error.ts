import { ApiError } from './api-error.js';
import { guardFor } from './pesakit-error.js';

/** 400: the platform refused the request — an invalid MSISDN, an unsupported provider, or an initiation the upstream refused. Fix the input; sending it again unchanged will fail again. */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError' as string;
  override readonly code = 'bad_request' as const;
}

export const isBadRequestError = guardFor(BadRequestError, 'BadRequestError');
