import { isSecretHeader, REDACTED } from '../internal/redaction.js';
import { summarizeFieldErrors } from '../schemas/error-body.js';

/** The framework-free request/response shapes of `receiver.receive()` (docs/callbacks.md). */

export interface ReceivedRequest {
  method: string;
  /** The path UNDER the mount point, with its query: `/callback?pesakit_ref=x`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body (Buffer or string), else a framework's parsed value; `undefined` for GET. */
  body?: unknown;
  /** The sender's address (`req.ip`: the socket's, or the trusted proxy's client): its budget. */
  source?: string;
}

/** What to answer; a framework adapter copies it onto its own response. */
export interface ReceiverResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The 413 of every receiver path: what was too large, the limit, and that nothing was stored. */
export function tooLargeResponse(
  part: 'body' | 'query',
  maxBodyBytes: number,
  headers: Record<string, string> = {},
): ReceiverResponse {
  const message =
    `The callback ${part} is larger than ${maxBodyBytes} bytes (the receiver's maxBodyBytes); ` +
    "the platform's callbacks are well under 1 KiB. Nothing was stored.";
  return jsonResponse(413, { message }, headers);
}

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ReceiverResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

/** Laravel's 422 shape, as the platform itself answers invalid input. */
export function validationResponse(errors: Record<string, string[]>): ReceiverResponse {
  return jsonResponse(422, { message: summarizeFieldErrors(errors), errors });
}

export function headerValue(headers: ReceivedRequest['headers'], name: string): string | undefined {
  // Node's frameworks give lower-case names: one lookup, no walk over every header.
  const direct = headers[name];
  if (direct !== undefined) return Array.isArray(direct) ? direct[0] : direct;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Headers as stored and shown: flat strings, lower-case names, credentials replaced. */
export function redactedHeaders(headers: ReceivedRequest['headers']): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const name = key.toLowerCase();
    plain[name] = isSecretHeader(name)
      ? REDACTED
      : Array.isArray(value)
        ? value.join(', ')
        : String(value);
  }
  return plain;
}
