import { setTimeout as delay } from 'node:timers/promises';
import pRetry from 'p-retry';
import { ApiError } from '../errors/api-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { parseRetryAfter } from '../errors/rate-limit-error.js';
import type { Call } from './call.js';
import { describeFailure } from './call-description.js';
import type { TransportEvents } from './transport-events.js';
import type { ResolvedTransportOptions } from './transport-options.js';

/** The longest `Retry-After` we wait for; a longer one is ignored (the backoff applies). */
const maxRetryAfterMs = 60_000;

/** What the retry layer needs from its transport. */
export interface RetryContext {
  readonly options: ResolvedTransportOptions;
  /** Emits the `retry` event (built only when someone listens). */
  emitRetry(payload: () => TransportEvents['retry'][0]): void;
}

/** Sends a call: a `safe` one retried on transient failures, a money call once. */
export function withRetries(
  context: RetryContext,
  call: Call,
  attempt: () => Promise<unknown>,
): Promise<unknown> {
  const { maxRetries, retryDelay } = context.options;
  if (call.endpoint.retry !== 'safe' || maxRetries === 0) return attempt();
  const { signal, retryRateLimited = true } = call.options;
  const retried = (error: unknown, attemptNumber: number) =>
    attemptNumber <= maxRetries &&
    isTransient(error) &&
    (retryRateLimited || !(error instanceof ApiError && error.status === 429));
  return pRetry(attempt, {
    retries: maxRetries,
    minTimeout: retryDelay.minMs,
    maxTimeout: retryDelay.maxMs,
    factor: 2,
    randomize: true,
    ...(signal ? { signal } : {}),
    shouldRetry: ({ error, attemptNumber }) => retried(error, attemptNumber),
    shouldConsumeRetry: ({ error }) => retryAfterMs(error) === undefined,
    onFailedAttempt: async ({ error, attemptNumber, retriesConsumed }) => {
      if (!retried(error, attemptNumber)) return;
      const asked = retryAfterMs(error);
      const delayMs = asked ?? Math.min(retryDelay.minMs * 2 ** retriesConsumed, retryDelay.maxMs);
      context.emitRetry(() => ({ ...describeFailure(call, context.options, error), delayMs }));
      if (asked !== undefined && asked > 0) await delay(asked, undefined, signal ? { signal } : {});
    },
  });
}

/** A connection failure, a timeout, 408, 429 or 5xx is worth repeating; other 4xx are not. */
function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (error instanceof ApiError) {
    return error.status === 408 || error.status === 429 || error.status >= 500;
  }
  return false;
}

/** The wait the platform asked for, when it asked for one we accept. */
function retryAfterMs(error: unknown): number | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const asked = parseRetryAfter(error.headers);
  return asked !== undefined && asked <= maxRetryAfterMs ? asked : undefined;
}
