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
 * What a response that just arrived says about itself. Its headers are copied and redacted
 * (credentials, and the values `secrets` returns) only when read: most callers never look.
 */
export function lastResponseOf(response: Response, secrets: () => readonly string[]): LastResponse {
  let headers: Record<string, string> | undefined;
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id') ?? undefined,
    get headers() {
      headers ??= redactHeaders(response.headers, secrets());
      return headers;
    },
  };
}
