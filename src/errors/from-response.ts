import { redactUrl } from '../internal/redaction.js';
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

/** Maps an HTTP error response to its class; an insufficient-funds 422 by code or message. */
export function errorFromResponse(details: ApiErrorDetails): ApiError {
  const Class = classFor(details);
  const body = details.body as { message?: unknown } | null | undefined;
  const platformMessage = typeof body?.message === 'string' ? body.message : undefined;
  const message =
    `${details.method} ${details.path} failed with ${details.status}` +
    (platformMessage ? `: ${platformMessage}` : '.') +
    ` ${advice.get(Class) ?? redirectAdvice(details) ?? 'See `status` and `body`.'}`;
  return new Class(message, details);
}

/** Advice for a redirect, which pesakit never follows; the Location without its query. */
function redirectAdvice(details: ApiErrorDetails): string | undefined {
  if (details.status < 300 || details.status >= 400) return undefined;
  const location = redactUrl(details.headers.get('location')?.split('?')[0] ?? '');
  return (
    `The platform answered with a redirect${location ? ` to ${location}` : ''}, which pesakit ` +
    'does not follow: set the base URL to the address the platform serves from. A money-moving ' +
    'call answered this way may still have been processed: its record is unknown; reconcile ' +
    'before sending it again.'
  );
}

const classByStatus: Readonly<Record<number, typeof ApiError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  429: RateLimitError,
};

function classFor({ status, body }: ApiErrorDetails): typeof ApiError {
  if (status === 422) return isInsufficientFunds(body) ? InsufficientFundsError : ValidationError;
  return classByStatus[status] ?? (status >= 500 ? ServerError : ApiError);
}

function isInsufficientFunds(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { code, message } = body as { code?: unknown; message?: unknown };
  if (code === 'insufficient_funds') return true;
  return typeof message === 'string' && /insufficient|not enough (balance|funds)/i.test(message);
}
