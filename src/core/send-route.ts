import ky from 'ky';
import { globalFetchIsNodes, type PlatformAnswer, sendOverHttp } from './http-send.js';

/** What the send route needs of an attempt. */
export interface Dispatch {
  readonly url: string;
  readonly method: string;
  readonly body: unknown;
  /** Header names in lower case, already checked. */
  readonly headers: Readonly<Record<string, string>>;
  /** The attempt's deadline (and the caller's abort, forwarded into it). */
  readonly signal: AbortSignal;
  /** `TransportOptions.fetch`, when one was injected. */
  readonly fetch: typeof globalThis.fetch | undefined;
}

/**
 * On the fetch route (an injected fetch, or a global fetch replaced after pesakit loaded — see
 * `dispatch`): whether an attempt goes to fetch directly rather than through ky: the first
 * attempt of an ordinary JSON call, and every attempt through an injected fetch. ky's own work per call
 * (options merged, an AbortController, a Request bound to its signal — ~0.15× of a raw fetch on
 * loopback) is what kept a read over 1.25× raw fetch, and with the transport doing its own
 * timeouts, retries and errors, ky changes nothing about what is sent. ky still runs the calls
 * where its cost does not count: retried attempts and uploads through the global fetch.
 *
 * An injected fetch (`TransportOptions.fetch`) never goes through ky: ky takes the answer of
 * the hook that sends (see `dispatch`) only when it is `instanceof` the global Response, and
 * the fetch people inject — the npm `undici` package's behind a ProxyAgent, node-fetch — answers
 * with its own Response class. ky then sent the request again with the global fetch: every call
 * twice, a money POST included, the second around the caller's proxy
 * (test/unit/transport/injected-fetch.test.ts).
 */
export function sendsDirectly(
  attempt: number,
  fetch: typeof globalThis.fetch | undefined,
  body: unknown,
): boolean {
  return fetch !== undefined || (attempt === 1 && !(body instanceof FormData));
}

/**
 * Sends one prepared request. An ordinary JSON call with neither an injected fetch nor a
 * replaced global one goes out through `node:http` (`sendOverHttp`: five times less CPU than
 * Node 20's fetch), every attempt alike, so a retried attempt puts on the wire exactly what the
 * first did. The rest take the fetch route, directly or through ky. `onDispatch` runs as the
 * request is handed over: a failure before that (ky or Node building the request) sent nothing.
 *
 * Through ky, ky runs the call — builds the request from the URL and method, runs its hooks —
 * and its `beforeRequest` hook sends it. fetch gets the JSON string, the headers and the
 * deadline signal as they are: handed to ky, the body became a stream that ky cloned (tee) and
 * undici re-piped through a TransformStream, ky merged the signal with its own and the headers
 * into new Headers — about half of the SDK's cost per call on loopback. Answering from
 * `beforeRequest` also skips ky's clone of the Request (kept for ky's own retries, which are
 * off: the transport retries, with its own schedule). An injected fetch
 * (`TransportOptions.fetch`) receives one Request, as it always has, so harnesses that read
 * `request.url` or `request.headers` keep working.
 */
export function dispatch(
  request: Dispatch,
  direct: boolean,
  onDispatch: () => void,
): Promise<PlatformAnswer> {
  const injected = request.fetch;
  if (!injected && !(request.body instanceof FormData) && globalFetchIsNodes()) {
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    return sendOverHttp({ ...request, body }, onDispatch);
  }
  const send = (): Promise<Response> => {
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
    };
    if (request.body !== undefined) {
      // A FormData body (the bulk upload) goes as multipart; fetch sets its boundary.
      init.body = request.body instanceof FormData ? request.body : JSON.stringify(request.body);
    }
    const built = injected ? new Request(request.url, init) : undefined;
    onDispatch();
    return built && injected ? injected(built) : globalThis.fetch(request.url, init);
  };
  if (direct) return send();
  return ky(request.url, {
    method: request.method,
    timeout: false,
    retry: 0,
    throwHttpErrors: false,
    hooks: { beforeRequest: [send] },
  });
}
