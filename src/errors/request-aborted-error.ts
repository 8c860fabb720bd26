import { guardFor, PesakitError } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

/**
 * The caller's `signal` aborted the call. A money call aborted this way was not sent; one aborted
 * after it was sent is an `AmbiguousOutcomeError` instead.
 */
export class RequestAbortedError extends PesakitError {
  override name = 'RequestAbortedError' as string;
  override readonly code = 'request_aborted' as const;
  readonly method: string;
  readonly path: string;
  /** The abort signal's reason (an `AbortError` DOMException unless the caller gave one). */
  readonly reason: unknown;

  constructor(request: RequestInfo, reason: unknown) {
    const why = reason instanceof Error ? reason.message : String(reason);
    super(`${request.method} ${request.path} was aborted by its signal (${why}).`, {
      cause: reason,
    });
    this.method = request.method;
    this.path = request.path;
    this.reason = reason;
  }
}

export const isRequestAbortedError = guardFor(RequestAbortedError, 'RequestAbortedError');
