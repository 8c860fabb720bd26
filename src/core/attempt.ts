import ky, { HTTPError, TimeoutError as KyTimeoutError } from 'ky';
import { AmbiguousOutcomeError } from '../errors/ambiguous-outcome-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { errorFromResponse } from '../errors/from-response.js';
import { PesakitError } from '../errors/pesakit-error.js';
import { RequestAbortedError } from '../errors/request-aborted-error.js';
import type { RequestInfo } from '../errors/request-info.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { redactBody, redactUrl } from '../internal/redaction.js';
import type { Endpoint } from './endpoints.js';
import { describeFailure, failedBeforeSending } from './network-failure.js';

/** One HTTP exchange, fully prepared: nothing here decides about auth or retries. */
export interface Attempt {
  readonly endpoint: Endpoint;
  readonly url: string;
  readonly path: string;
  /** A JSON value, or the FormData of an upload. */
  readonly body: unknown;
  /** Header names in lower case, already checked (TransportOptions and RequestOptions). */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly fetch: typeof globalThis.fetch;
  /** Carried by an AmbiguousOutcomeError, so the caller can reconcile ('' when unknown). */
  readonly merchantReference: string;
}

/**
 * Sends one attempt through ky (p-retry retries). Redirects are never followed: a money call
 * re-sent elsewhere could pay twice. A maybe-sent money request is an AmbiguousOutcomeError.
 */
export async function sendAttempt(
  attempt: Attempt,
  onResponse: (response: Response) => void,
): Promise<unknown> {
  const { endpoint, path, merchantReference, signal: caller } = attempt;
  const request: RequestInfo = { method: endpoint.method, path };
  const money = endpoint.retry === 'money';
  // Set as the request is handed to fetch: a failure before that (ky building it) sent nothing.
  let dispatched = false;
  let text = '';
  // Fetch gets ky's signal, or with a caller's an own one that either aborts: ky would merge the
  // two with AbortSignal.any, slower, and leave a dependent on a long-lived caller's signal.
  const aborter = caller ? new AbortController() : undefined;
  const forwardAbort = () => aborter?.abort(caller?.reason);
  caller?.addEventListener('abort', forwardAbort, { once: true });
  // The body goes to fetch beside ky's bodiless Request: a Request made from a Request pipes its
  // body through one more stream, and ky tees it for retries it never makes (`retry: 0`).
  const payload = attempt.body === undefined ? null : bodyOf(attempt.body);
  try {
    const response = await ky(attempt.url, {
      method: endpoint.method,
      headers: attempt.headers,
      timeout: attempt.timeoutMs,
      retry: 0,
      redirect: 'manual',
      fetch: async (input, init) => {
        dispatched = true;
        const { url, method, headers, signal, redirect } = input as Request;
        const forwardDeadline = () => aborter?.abort(signal.reason);
        if (aborter) signal.addEventListener('abort', forwardDeadline, { once: true });
        const answer = await attempt.fetch(url, {
          ...init,
          method,
          headers,
          body: payload,
          signal: aborter?.signal ?? signal,
          redirect,
        });
        onResponse(answer);
        text = await answer.text();
        return answer;
      },
    });
    const body = parsedBody(text);
    const parsed = endpoint.response.safeParse(body);
    if (parsed.success) return parsed.data;
    // The body may be a login answer: its token must not travel inside an error.
    const status = response.status;
    throw new ResponseValidationError(
      { ...request, status },
      redactBody(body),
      parsed.error.issues,
    );
  } catch (error) {
    if (error instanceof HTTPError) {
      const { status, headers } = error.response;
      const failure = errorFromResponse({ ...request, status, body: parsedBody(text), headers });
      // A server may answer a POST it processed with 303 (post/redirect/get).
      if (money && status >= 300 && status < 400) {
        const to = redactUrl(headers.get('location')?.split('?')[0] ?? '');
        const reason = `was answered ${status}, a redirect${to ? ` to ${to}` : ''} that pesakit does not follow, after the platform may have processed it`;
        throw new AmbiguousOutcomeError(request, merchantReference, { cause: failure, reason });
      }
      throw failure;
    }
    if (error instanceof PesakitError) throw error;
    const atRisk = money && dispatched && !failedBeforeSending(error);
    const failure = transportFailure(attempt, request, error, dispatched);
    throw atRisk
      ? new AmbiguousOutcomeError(request, merchantReference, { cause: failure })
      : failure;
  } finally {
    caller?.removeEventListener('abort', forwardAbort);
  }
}

/** A FormData upload goes as multipart (fetch sets the boundary); anything else as JSON. */
function bodyOf(body: unknown): BodyInit {
  return body instanceof FormData ? body : JSON.stringify(body);
}

/** Parsed JSON when the body is JSON, the raw text otherwise (an HTML page), undefined when empty. */
function parsedBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** What a failure without an answer was: the caller's abort, the deadline, or the network. */
function transportFailure(
  attempt: Attempt,
  request: RequestInfo,
  error: unknown,
  dispatched: boolean,
): PesakitError {
  const caller = attempt.signal;
  if (caller?.aborted) return new RequestAbortedError(request, caller.reason);
  if (error instanceof KyTimeoutError) {
    return new TimeoutError(request, attempt.timeoutMs, { cause: error });
  }
  const where = `${request.method} ${request.path}`;
  const sent = dispatched && !failedBeforeSending(error);
  const message = sent
    ? `${where}: the connection failed before a response arrived (${describeFailure(error)}). ` +
      'Check connectivity; a status or list pull tells whether the platform acted on it.'
    : `${where} could not reach the platform (${describeFailure(error)}). Nothing was sent; ` +
      'check the base URL and connectivity, then try again.';
  return new ConnectionError(message, request, { cause: error });
}
