import { ConnectionError } from './connection-error.js';
import { guardFor } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

/** A safe request got no answer within `timeoutMs` on every attempt (a money call: ambiguous). */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError' as string;
  override readonly code = 'timeout' as const;
  readonly timeoutMs: number;

  constructor(request: RequestInfo, timeoutMs: number, options?: { cause?: unknown }) {
    super(
      `${request.method} ${request.path} got no response within ${timeoutMs} ms. ` +
        'Raise `timeoutMs` if the platform is slow, or check connectivity.',
      request,
      options,
    );
    this.timeoutMs = timeoutMs;
  }
}

export const isTimeoutError = guardFor(TimeoutError, 'TimeoutError');
