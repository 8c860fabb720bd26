import { ApiError, type ApiErrorDetails } from './api-error.js';
import { AuthenticationError } from './authentication-error.js';
import { BadRequestError } from './bad-request-error.js';
import { ConflictError } from './conflict-error.js';
import { InsufficientFundsError } from './insufficient-funds-error.js';
import { NotFoundError } from './not-found-error.js';
import { PermissionError } from './permission-error.js';
import { RateLimitError } from './rate-limit-error.js';
import { ServerError } from './server-error.js';
import { ValidationError } from './validation-error.js';

// Keyed by class, not by `Class.name`: bundlers may rename classes.
const advice = new Map<typeof ApiError, string>([
  [BadRequestError, 'Check the MSISDN (255 + nine digits, a supported provider) and the amount.'],
  [AuthenticationError, 'Check the credentials, and that the account may log in.'],
  [PermissionError, 'The account is not allowed to do this yet: is it activated?'],
  [NotFoundError, 'Check the reference or path.'],
  [ConflictError, 'Pull the current state (status or list) before sending anything again.'],
  [ValidationError, 'Fix the fields listed in `errors`.'],
  [InsufficientFundsError, 'Top up the wallet or send a smaller amount; nothing was debited.'],
  [RateLimitError, 'Slow down; wait as long as `retryAfterMs` says.'],
  [ServerError, 'The platform failed; for money-moving calls, reconcile before resending.'],
]);

/**
 * Maps an HTTP error response to its class (openai-node's `APIError.generate`). The 422 for an
 * insufficient wallet is told apart from other 422s by `code: "insufficient_funds"`, or by the
 * platform's message when the code is absent (production does not promise it).
 */
export function errorFromResponse(details: ApiErrorDetails): ApiError {
  const Class = classFor(details);
  const body = details.body as { message?: unknown } | null | undefined;
  const platformMessage = typeof body?.message === 'string' ? body.message : undefined;
  const message =
    `${details.method} ${details.path} failed with ${details.status}` +
    (platformMessage ? `: ${platformMessage}` : '.') +
    ` ${advice.get(Class) ?? 'See `status` and `body`.'}`;
  return new Class(message, details);
}

function classFor(details: ApiErrorDetails): typeof ApiError {
  const { status } = details;
  if (status === 400) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 422)
    return isInsufficientFunds(details.body) ? InsufficientFundsError : ValidationError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return ApiError;
}

function isInsufficientFunds(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { code, message } = body as { code?: unknown; message?: unknown };
  if (code === 'insufficient_funds') return true;
  return typeof message === 'string' && /insufficient|not enough (balance|funds)/i.test(message);
}
