import { redactHeaders } from '../internal/redaction.js';

/**
 * The HTTP side of a call that succeeded (stripe-node's `lastResponse`): the status, the
 * platform's `x-request-id` to quote to its support, and the headers, secrets redacted.
 */
export interface LastResponse {
  readonly status: number;
  readonly requestId: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

/** A result with its `lastResponse`. */
export type WithLastResponse<T> = T & { readonly lastResponse: LastResponse };

/**
 * Attaches `lastResponse` to a result as a non-enumerable property, so that it is there to read
 * but does not show up in `JSON.stringify`, spreads, or deep equality of the result.
 */
export function withLastResponse<T extends object>(
  value: T,
  lastResponse: LastResponse,
): WithLastResponse<T> {
  Object.defineProperty(value, 'lastResponse', {
    value: lastResponse,
    enumerable: false,
    configurable: true,
  });
  return value as WithLastResponse<T>;
}

/**
 * What a response that just arrived says about itself, secrets redacted. The redacted copy of
 * the headers, and the request id, are read from the response's headers when first asked for,
 * not on every call: most callers never read them (a `Headers.get` alone cost as much as
 * tagging the callback URL). They are still ordinary enumerable properties to look at, spread
 * or compare, and the response's headers cannot change meanwhile. `response.headers` itself is
 * read only then too: on the node:http route (http-send.ts) it is built on first read.
 */
export function lastResponseOf(
  status: number,
  response: { readonly headers: Headers },
): LastResponse {
  let redacted: Record<string, string> | undefined;
  let requestId: string | undefined | null = null;
  return {
    status,
    get requestId() {
      if (requestId === null) requestId = response.headers.get('x-request-id') ?? undefined;
      return requestId;
    },
    get headers() {
      redacted ??= redactHeaders(response.headers);
      return redacted;
    },
  };
}
