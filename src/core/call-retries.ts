import { setTimeout as delay } from 'node:timers/promises';
import pRetry from 'p-retry';
import { ApiError } from '../errors/api-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { parseRetryAfter } from '../errors/rate-limit-error.js';
import type { Call } from './call.js';
import { describeFailure } from './call-description.js';
import type { TransportEvents } from './transport-events.js';
import type { ResolvedTransportOptions } from './transport-options.js';

/**
 * The longest `Retry-After` we wait for. A platform asking for more is treated as having said
 * nothing (the backoff applies), as openai-node does, so a call never hangs for minutes.
 */
const maxRetryAfterMs = 60_000;

/** What the retry layer needs from its transport. */
export interface RetryContext {
  readonly options: ResolvedTransportOptions;
  /** Emits the `retry` event (built only when someone listens). */
  emitRetry(payload: () => TransportEvents['retry'][0]): void;
}

/**
 * Sends a call, retrying a safe one (`endpoint.retry === 'safe'`) on a transient failure; a
 * money-moving call goes out once (DESIGN decision 3). p-retry waits: its backoff (`minMs`
 * doubling to `maxMs`, each delay stretched by up to as much again at random), or, when the
 * platform said how long with `retry-after-ms` / `Retry-After`, exactly that instead — the
 * wait happens in `onFailedAttempt` and such a retry consumes none of p-retry's backoff, while
 * `shouldRetry` still counts every attempt against `maxRetries`.
 */
export function withRetries(
  context: RetryContext,
  call: Call,
  attempt: () => Promise<unknown>,
): Promise<unknown> {
  const { maxRetries, retryDelay } = context.options;
  if (call.endpoint.retry !== 'safe' || maxRetries === 0) return attempt();
  const { signal } = call.options;
  const retried = (error: unknown, attemptNumber: number) =>
    attemptNumber <= maxRetries && isTransient(error);
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

/**
 * Whether a failed attempt of a safe operation is worth repeating: the connection failed or
 * timed out, or the platform said "later" (408, 429) or failed (5xx). Other 4xx answers will
 * not change on a second try.
 */
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
