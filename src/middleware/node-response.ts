import type { ServerResponse } from 'node:http';
import { jsonResponse, type ReceiverResponse } from '../callbacks/http.js';

export function sendReceiverResponse(response: ServerResponse, answer: ReceiverResponse): void {
  response.writeHead(answer.status, {
    ...answer.headers,
    'content-length': String(Buffer.byteLength(answer.body)),
  });
  response.end(answer.body);
}

/** The adapter's own 413; `connection: close`, the unread rest of the body is on the wire. */
export function bodyTooLargeResponse(limit: number): ReceiverResponse {
  const message = `The callback body is larger than ${limit} bytes; a platform callback is far smaller. Nothing was stored.`;
  return jsonResponse(413, { message }, { connection: 'close' });
}

/** Whether a client-declared body length is over the limit (a header that is not a number is not). */
export function declaresTooLarge(
  headers: Record<string, string | string[] | undefined>,
  limit: number,
): boolean {
  const declared = Number(headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}
