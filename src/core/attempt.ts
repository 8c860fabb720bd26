import { AmbiguousOutcomeError } from '../errors/ambiguous-outcome-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { errorFromResponse } from '../errors/from-response.js';
import { PesakitError } from '../errors/pesakit-error.js';
import { RequestAbortedError } from '../errors/request-aborted-error.js';
import type { RequestInfo } from '../errors/request-info.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { redactBody } from '../internal/redaction.js';
import type { Endpoint } from './endpoints.js';
import { describeFailure, failedBeforeSending } from './network-failure.js';
import { readResponseBody } from './response-body.js';
import { dispatch } from './send-route.js';

/** One HTTP exchange, fully prepared: nothing here decides about auth or retries. */
export interface Attempt {
  readonly endpoint: Endpoint;
  readonly url: string;
  readonly path: string;
  readonly body: unknown;
  /** Header names in lower case, already checked (TransportOptions and RequestOptions). */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly fetch: typeof globalThis.fetch | undefined;
  /** Carried by an AmbiguousOutcomeError, so the caller can reconcile ('' when unknown). */
  readonly merchantReference: string;
  /** Sent with fetch directly rather than through ky (send-route.ts `sendsDirectly`). */
  readonly direct?: boolean;
}

/** What arrived, reported as soon as the headers are in (for the `response` event and `lastResponse`). */
export interface ArrivedResponse {
  readonly status: number;
  readonly headers: Headers;
}

/**
 * Sends one attempt and returns the response body parsed by the endpoint's response schema.
 * Throws an ApiError for an HTTP error, ResponseValidationError for an unexpected 2xx body,
 * and for a transport failure: AmbiguousOutcomeError when a money-moving request may have
 * been sent, else ConnectionError/TimeoutError. A caller's own abort is a RequestAbortedError
 * (or, for money that may have been sent, an AmbiguousOutcomeError caused by one).
 */
export async function sendAttempt(
  attempt: Attempt,
  onResponse: (response: ArrivedResponse) => void,
): Promise<unknown> {
  const { endpoint, path, merchantReference } = attempt;
  const request: RequestInfo = { method: endpoint.method, path };
  const caller = attempt.signal;
  // A call the caller already gave up on is not sent at all (and so is never ambiguous).
  if (caller?.aborted) throw new RequestAbortedError(request, caller.reason);
  // The deadline covers the whole exchange, body included: ky's own timeout stops at headers.
  // The caller's abort is forwarded into the same controller rather than merged with
  // AbortSignal.any (a composite signal per call, tracked by the GC); `timedOut` tells the two
  // apart.
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, attempt.timeoutMs);
  const forwardAbort = () => deadline.abort(caller?.reason);
  caller?.addEventListener('abort', forwardAbort, { once: true });
  // Set when fetch is called: a failure before that (ky building the Request) sent nothing.
  let dispatched = false;
  try {
    const response = await dispatch(
      {
        url: attempt.url,
        method: endpoint.method,
        body: attempt.body,
        headers: attempt.headers,
        signal: deadline.signal,
        fetch: attempt.fetch,
      },
      attempt.direct === true,
      () => {
        dispatched = true;
      },
    );
    // `headers` passed on unread: on the node:http route they are built only when read (an
    // event listener, `lastResponse`, an error), not for every answer.
    onResponse({
      status: response.status,
      get headers() {
        return response.headers;
      },
    });
    const body = await readResponseBody(response);
    if (!response.ok) {
      throw errorFromResponse({
        ...request,
        status: response.status,
        body,
        headers: response.headers,
      });
    }
    const parsed = endpoint.response.safeParse(body);
    if (!parsed.success) {
      // The body may be a login answer: its token must not travel inside an error.
      const status = response.status;
      throw new ResponseValidationError(
        { ...request, status },
        redactBody(body),
        parsed.error.issues,
      );
    }
    return parsed.data;
  } catch (error) {
    if (error instanceof PesakitError) throw error;
    const mayHaveBeenSent = dispatched && !failedBeforeSending(error);
    const moneyAtRisk = endpoint.retry === 'money' && mayHaveBeenSent;
    if (caller?.aborted && !timedOut) {
      const aborted = new RequestAbortedError(request, caller.reason);
      if (moneyAtRisk)
        throw new AmbiguousOutcomeError(request, merchantReference, { cause: aborted });
      throw aborted;
    }
    if (timedOut) {
      const timeout = new TimeoutError(request, attempt.timeoutMs, { cause: error });
      throw moneyAtRisk
        ? new AmbiguousOutcomeError(request, merchantReference, { cause: timeout })
        : timeout;
    }
    // ky refused to build the request (a malformed header, say): nothing was sent.
    if (!dispatched) throw error;
    const failure = connectionError(request, error, mayHaveBeenSent);
    throw moneyAtRisk
      ? new AmbiguousOutcomeError(request, merchantReference, { cause: failure })
      : failure;
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', forwardAbort);
  }
}

function connectionError(request: RequestInfo, error: unknown, mayHaveBeenSent: boolean) {
  const where = `${request.method} ${request.path}`;
  const message = mayHaveBeenSent
    ? `${where}: the connection failed before a response arrived (${describeFailure(error)}). ` +
      'Check connectivity; a status or list pull tells whether the platform acted on it.'
    : `${where} could not reach the platform (${describeFailure(error)}). Nothing was sent; ` +
      'check the base URL and connectivity, then try again.';
  return new ConnectionError(message, request, { cause: error });
}
