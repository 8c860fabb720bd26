import { redactHeaders } from '../internal/redaction.js';

/** A successful call's status, `x-request-id` (for support) and redacted headers. */
export interface LastResponse {
  readonly status: number;
  readonly requestId: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
}

/** A result with its `lastResponse`. */
export type WithLastResponse<T> = T & { readonly lastResponse: LastResponse };

/** Attaches `lastResponse` non-enumerably: kept out of JSON, spreads and deep equality. */
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

/** A response's `lastResponse`; headers are copied and redacted only when read. */
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
