/** One HTTP attempt at a callback delivery, reduced to what the log needs. */

import { DELIVERY_MARK_HEADER } from '../http/control-path.js';

/** What one attempt produced: a status when the merchant answered, an error unless 2xx. */
export interface AttemptResult {
  status?: number;
  error?: string;
  durationMs: number;
}

/** One attempt's request. */
export interface AttemptRequest {
  url: string;
  body: string;
  deliveryId: string;
  attempt: number;
}

/**
 * POSTs the callback once. Never throws: connection errors, timeouts and cancellation (via
 * `controller`) come back as `error`. Redirects are not followed (a merchant's callback URL
 * must answer itself), so a 3xx is a failed attempt like any other non-2xx.
 */
export async function sendAttempt(
  fetchImpl: typeof fetch,
  request: AttemptRequest,
  controller: AbortController,
  timeoutMs: number,
): Promise<AttemptResult> {
  const timeout = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  try {
    const response = await fetchImpl(request.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'pesakit-sandbox',
        'x-pesakit-delivery-id': request.deliveryId,
        'x-pesakit-attempt': String(request.attempt),
        [DELIVERY_MARK_HEADER]: '1',
      },
      body: request.body,
      redirect: 'manual',
      signal: controller.signal,
    });
    const status = response.status;
    // Drain nothing we do not need, but free the socket.
    await response.body?.cancel().catch(() => undefined);
    if (status >= 200 && status <= 299) return { status, durationMs: elapsed() };
    return { status, error: `The merchant answered HTTP ${status}.`, durationMs: elapsed() };
  } catch (cause) {
    return { error: describeFailure(cause, controller.signal, timeoutMs), durationMs: elapsed() };
  } finally {
    clearTimeout(timeout);
  }
}

/** True for the only URLs a callback may go to. */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** Undici reports "fetch failed" and hides the reason in `cause`; surface the useful part. */
function describeFailure(cause: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof Error && reason.message === 'timeout') {
      return `No answer within ${timeoutMs} ms.`;
    }
    return 'The delivery was cancelled.';
  }
  const inner = cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause;
  return inner instanceof Error ? inner.message : String(inner);
}
