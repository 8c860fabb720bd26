import type { ServerResponse } from 'node:http';
import { type ReceiverResponse, tooLargeResponse } from '../callbacks/http.js';

export function sendReceiverResponse(response: ServerResponse, answer: ReceiverResponse): void {
  response.writeHead(answer.status, {
    ...answer.headers,
    'content-length': String(Buffer.byteLength(answer.body)),
  });
  response.end(answer.body);
}

/** The adapter's own 413; `connection: close`, the unread rest of the body is on the wire. */
export function bodyTooLargeResponse(limit: number): ReceiverResponse {
  return tooLargeResponse('body', limit, { connection: 'close' });
}

/** Whether a client-declared body length is over the limit (a header that is not a number is not). */
export function declaresTooLarge(
  headers: Record<string, string | string[] | undefined>,
  limit: number,
): boolean {
  const declared = Number(headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}
