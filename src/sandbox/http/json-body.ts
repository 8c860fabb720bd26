import type { FastifyInstance } from 'fastify';

/** The largest request body the sandbox reads (larger is a 413). */
export const BODY_LIMIT = 1024 * 1024;

/** A client error Fastify's error handler turns into `{message}` with this status. */
export class ClientError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}

/**
 * All bodies are JSON (spec § Endpoints). The sandbox parses JSON itself so that an empty body
 * is "no body" (bodyless POSTs such as logout and getPayments are common) and a malformed one is
 * a clear 400; every other content type is left without a parser, which Fastify answers 415.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new ClientError(400, 'The request body is not valid JSON.'), undefined);
      }
    },
  );
}
