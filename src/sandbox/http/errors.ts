import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

import type { FastifyError, FastifyInstance } from 'fastify';

// Fastify's client errors, reworded to say what to do; nothing a client sends becomes a 5xx.
const clientMessages: Readonly<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is larger than the 1 MiB limit.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE:
    'Unsupported Content-Type: send the body as JSON with Content-Type: application/json.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length does not match the body.',
};

/** Every error becomes `{message}`; a 500 is a sandbox bug, logged, answered without internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const message = clientMessages[error.code] ?? error.message;
      return reply.code(status).send({ message });
    }
    request.log.error({ err: error }, 'sandbox bug');
    return reply.code(500).send({ message: 'The sandbox failed unexpectedly; this is a bug.' });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]?.slice(0, 200) ?? '';
    return reply.code(404).send({ message: `No route for ${request.method} ${path}.` });
  });
}

/** Answers what Node's HTTP parser refuses as `{message}` with an `x-request-id`, then closes. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request did not arrive in time; send the whole request at once.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n` +
        `x-request-id: req_${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
