import type { z } from 'zod';
import { guardFor, PesakitError } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

/**
 * The platform answered 2xx with a body we did not expect: for a money call the outcome is
 * unread, not failed — reconcile before acting on it.
 */
export class ResponseValidationError extends PesakitError {
  override name = 'ResponseValidationError' as string;
  override readonly code = 'response_validation' as const;
  readonly issues: z.core.$ZodIssue[];
  readonly body: unknown;
  readonly method: string;
  readonly path: string;
  readonly status: number;

  constructor(
    request: RequestInfo & { status: number },
    body: unknown,
    issues: z.core.$ZodIssue[],
    options?: { cause?: unknown },
  ) {
    const where = issues
      .slice(0, 3)
      .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
      .join('; ');
    super(
      `${request.method} ${request.path} answered ${request.status} with an unexpected body (${where}). ` +
        'The platform may have changed its contract; please report this with the body attached.',
      options,
    );
    this.issues = issues;
    this.body = body;
    this.method = request.method;
    this.path = request.path;
    this.status = request.status;
  }
}

export const isResponseValidationError = guardFor(
  ResponseValidationError,
  'ResponseValidationError',
);
