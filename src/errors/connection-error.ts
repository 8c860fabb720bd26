import { guardFor, PesakitError } from './pesakit-error.js';
import type { RequestInfo } from './request-info.js';

/** The request never reached the platform (refused, DNS, TLS): sending again is safe. */
export class ConnectionError extends PesakitError {
  override name = 'ConnectionError' as string;
  override readonly code: 'connection_error' | 'timeout' = 'connection_error';
  readonly method: string;
  readonly path: string;

  constructor(message: string, request: RequestInfo, options?: { cause?: unknown }) {
    super(message, options);
    this.method = request.method;
    this.path = request.path;
  }
}

export const isConnectionError = guardFor(ConnectionError, 'ConnectionError', 'TimeoutError');
