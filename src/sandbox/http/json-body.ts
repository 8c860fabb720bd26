import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

/** The largest request body the sandbox reads (larger is a 413). */
export const BODY_LIMIT = 1024 * 1024;

const PROTOTYPE_KEY_MESSAGE =
  'The request body contains a "__proto__" or "constructor.prototype" key; remove it (such keys are refused to prevent prototype poisoning).';

/** A client error Fastify's error handler turns into `{message}` with this status. */
export const clientError = (statusCode: number, message: string) =>
  Object.assign(new Error(message), { statusCode });

/** JSON bodies: empty is none, malformed or `__proto__` keys a 400, other content types a 415. */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return done(clientError(400, 'The request body is not valid JSON.'), undefined);
      }
      try {
        if (typeof value === 'object' && value !== null) {
          secureJson.scan(value, { protoAction: 'error', constructorAction: 'error' });
        }
      } catch {
        return done(clientError(400, PROTOTYPE_KEY_MESSAGE), undefined);
      }
      done(null, value);
    },
  );
}
