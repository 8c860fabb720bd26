import { guardFor, PesakitError } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

/**
 * The caller's `signal` aborted the call. `reason` (also the `cause`) is the signal's reason.
 *
 * A money-moving call aborted *before* it was sent is this error, and nothing was stored or
 * sent. One aborted after it left is never this: it is an `AmbiguousOutcomeError` (the money
 * may have moved), with this error as its `cause`.
 */
export class RequestAbortedError extends PesakitError {
  override name = 'RequestAbortedError' as string;
  override readonly code = 'request_aborted' as const;
  readonly method: string;
  readonly path: string;
  /** The abort signal's reason (an `AbortError` DOMException unless the caller gave one). */
  readonly reason: unknown;

  constructor(request: RequestInfo, reason: unknown) {
    super(`${request.method} ${request.path} was aborted by its signal (${describe(reason)}).`, {
      cause: reason,
    });
    this.method = request.method;
    this.path = request.path;
    this.reason = reason;
  }
}

export const isRequestAbortedError = guardFor(RequestAbortedError, 'RequestAbortedError');

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
