import type { RequestOptions } from '../core/transport.js';

/** Per-call options of the methods that move no money (status, user, list, login …). */
export interface CallOptions {
  /** Aborts the call, including a retry backoff in progress: a RequestAbortedError. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for each attempt of this call. */
  timeoutMs?: number;
}

/** The transport options given in `options` (`null` from JavaScript means none). */
export function transportOptions(
  given?: CallOptions | null,
): Pick<RequestOptions, 'signal' | 'timeoutMs'> {
  const options = given ?? {};
  return {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
}
