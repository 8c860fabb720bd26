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
export type ValidationErrorCode = 'validation_error' | 'insufficient_funds' | RefusedBeforeSending;
type RefusedBeforeSending = 'request_validation' | 'bulk_validation' | 'bulk_insufficient_funds';

export interface ApiErrorDetails extends RequestInfo {
  readonly status: number;
  /** The parsed JSON body, or the raw text when the body was not JSON. */
  readonly body: unknown;
  readonly headers: Headers;
}

/**
 * The platform answered with an HTTP error; subclasses name the meaning. Check `status`, `code`
 * and `body` (secret headers and body values read `[redacted]`).
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

  /** The body's machine-readable `code` (`insufficient_funds` …): switch on it, not the text. */
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
