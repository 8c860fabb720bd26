import { RequestAbortedError } from '../errors/request-aborted-error.js';
import type { RequestInfo } from '../errors/request-info.js';

/** `work`, or a RequestAbortedError once `signal` aborts, without cancelling shared `work`. */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  request: RequestInfo,
): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new RequestAbortedError(request, signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new RequestAbortedError(request, signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
