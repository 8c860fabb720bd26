import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits `ms` milliseconds, or rejects as soon as `signal` aborts (Node's own abortable timer),
 * so a caller who gives up during a retry backoff is not kept waiting. The rejection is Node's
 * `AbortError` with the signal's reason as `cause`; the transport turns it into a
 * RequestAbortedError.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(ms, undefined, signal ? { signal } : {});
}
