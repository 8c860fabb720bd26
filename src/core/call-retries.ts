import pRetry from 'p-retry';
import { sleep } from '../internal/sleep.js';
import { isTransient, retryDelayMs } from './backoff.js';
import type { Call } from './call.js';
import { describeFailure } from './call-description.js';
import type { TransportEvents } from './transport-events.js';
import type { ResolvedTransportOptions } from './transport-options.js';

/** What the retry layer needs from its transport. */
export interface RetryContext {
  readonly options: ResolvedTransportOptions;
  /** Emits the `retry` event (built only when someone listens). */
  emitRetry(payload: () => TransportEvents['retry'][0]): void;
}

/**
 * Sends a call, retrying a safe one (`endpoint.retry === 'safe'`) on a transient failure, with
 * backoff that honours Retry-After; a money-moving call goes out once (DESIGN decision 3).
 * The first attempt goes out directly; p-retry takes over only after it failed, with the
 * same schedule (entering p-retry cost ~17 µs on every call, though most succeed at once).
 */
export async function withRetries(
  context: RetryContext,
  call: Call,
  attempt: () => Promise<unknown>,
): Promise<unknown> {
  const { signal } = call.options;
  const { maxRetries } = context.options;
  if (call.endpoint.retry !== 'safe' || maxRetries === 0) return attempt();
  try {
    const data = await attempt();
    // As p-retry does: a caller who aborted meanwhile gets the abort, not the answer.
    signal?.throwIfAborted();
    return data;
  } catch (error) {
    if (!(await retryAfter(context, call, error, 0))) throw error;
  }
  signal?.throwIfAborted();
  return pRetry(attempt, {
    retries: maxRetries - 1,
    // p-retry's own schedule cannot honour Retry-After, so shouldRetry does the waiting.
    minTimeout: 0,
    maxTimeout: 0,
    ...(signal ? { signal } : {}),
    shouldRetry: ({ error, retriesConsumed }) =>
      retryAfter(context, call, error, retriesConsumed + 1),
  });
}

/** Whether a failed attempt is retried: if so, announces it and waits out its backoff. */
async function retryAfter(
  context: RetryContext,
  call: Call,
  error: unknown,
  retriesConsumed: number,
): Promise<boolean> {
  if (!isTransient(error)) return false;
  const delayMs = retryDelayMs(retriesConsumed + 1, context.options.retryDelay, error);
  context.emitRetry(() => ({ ...describeFailure(call, context.options, error), delayMs }));
  await sleep(delayMs, call.options.signal);
  return true;
}
