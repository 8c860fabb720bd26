import { redactBody, redactedHeaders } from '../internal/redaction.js';
import type { FieldErrors } from '../schemas/error-body.js';
import { guardFor, PesakitError } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

/** The `code` of ApiError and each of its subclasses. */
export type ApiErrorCode =
  | 'api_error'
  | 'bad_request'
  | 'authentication_error'
  | 'permission_denied'
  | 'not_found'
  | 'conflict'
  | ValidationErrorCode
  | 'rate_limited'
  | 'server_error';

/** The `code` of ValidationError and each of its subclasses. */
export type ValidationErrorCode = 'validation_error' | 'insufficient_funds' | 'request_validation';

export interface ApiErrorDetails extends RequestInfo {
  readonly status: number;
  /** The parsed JSON body, or the raw text when the body was not JSON. */
  readonly body: unknown;
  readonly headers: Headers;
}

/**
 * The platform answered with an HTTP error. Subclasses name the meaning; `status`, `code`,
 * `body`, `headers` and `requestId` are always there for the cases no subclass covers.
 *
 * Secrets never travel inside it: `Set-Cookie`, `Authorization` and API-key headers, and the
 * string values of secret body keys (`token`, `password`, `access_token` …) read `[redacted]`.
 * A server answering an error with a session cookie or an echoed password (seen on a 500)
 * would otherwise put them in every log line that prints the error.
 */
export class ApiError extends PesakitError {
  override name = 'ApiError' as string;
  override readonly code: ApiErrorCode = 'api_error';
  readonly status: number;
  /** The parsed JSON body (or the raw text), secrets redacted. */
  readonly body: unknown;
  /** The response headers, secrets redacted. */
  readonly headers: Headers;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;

  constructor(message: string, details: ApiErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.status = details.status;
    this.body = redactBody(details.body);
    this.headers = redactedHeaders(details.headers);
    this.method = details.method;
    this.path = details.path;
    this.requestId = details.headers.get('x-request-id') ?? undefined;
  }

  /** The platform's own `message`, when the body had one. */
  get platformMessage(): string | undefined {
    const body = this.body as { message?: unknown } | null;
    return typeof body?.message === 'string' ? body.message : undefined;
  }

  /**
   * The platform's own machine-readable reason, when its body carried one (`insufficient_funds`,
   * `upstream_failed`; pesakit's `missing_credentials`): switch on it rather than on the message.
   */
  get platformCode(): string | undefined {
    const code = (this.body as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  }

  /** Laravel's per-field errors, when the body had them. */
  get fieldErrors(): FieldErrors {
    const body = this.body as { errors?: unknown } | null;
    return isFieldErrors(body?.errors) ? body.errors : {};
  }
}

export const isApiError = guardFor(
  ApiError,
  ...['ApiError', 'BadRequestError', 'AuthenticationError', 'PermissionError', 'NotFoundError'],
  ...['ConflictError', 'ValidationError', 'RequestValidationError', 'InsufficientFundsError'],
  ...['RateLimitError', 'ServerError'],
);

function isFieldErrors(value: unknown): value is FieldErrors {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'))
  );
}
