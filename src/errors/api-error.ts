import type { FieldErrors } from '../schemas/error-body.js';
import { hasName, PesakitError } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

export interface ApiErrorDetails extends RequestInfo {
  readonly status: number;
  /** The parsed JSON body, or the raw text when the body was not JSON. */
  readonly body: unknown;
  readonly headers: Headers;
}

/**
 * The platform answered with an HTTP error. Subclasses name the meaning; `status`, `body`,
 * `headers` and `requestId` are always there for the cases no subclass covers.
 */
export class ApiError extends PesakitError {
  override name = 'ApiError' as string;
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;

  constructor(message: string, details: ApiErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.status = details.status;
    this.body = details.body;
    this.headers = details.headers;
    this.method = details.method;
    this.path = details.path;
    this.requestId = details.headers.get('x-request-id') ?? undefined;
  }

  /** The platform's own `message`, when the body had one. */
  get platformMessage(): string | undefined {
    const body = this.body as { message?: unknown } | null;
    return typeof body?.message === 'string' ? body.message : undefined;
  }

  /** Laravel's per-field errors, when the body had them. */
  get fieldErrors(): FieldErrors {
    const body = this.body as { errors?: unknown } | null;
    return isFieldErrors(body?.errors) ? body.errors : {};
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError || hasName(error, 'ApiError') || isApiErrorSubclass(error);
}

const subclassNames = [
  'BadRequestError',
  'AuthenticationError',
  'PermissionError',
  'NotFoundError',
  'ValidationError',
  'InsufficientFundsError',
  'RateLimitError',
  'ServerError',
];

function isApiErrorSubclass(error: unknown): boolean {
  return hasName(error, ...subclassNames);
}

function isFieldErrors(value: unknown): value is FieldErrors {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'))
  );
}
