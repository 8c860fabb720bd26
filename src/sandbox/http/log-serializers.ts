import type { FastifyRequest } from 'fastify';
import { decodedPath } from './control-path.js';

/**
 * A hosted checkout's payment token is in its URLs (`/checkout/<token>`, `…/card`,
 * `…/status`), and whoever holds it can open the customer's payment page: a log line must not
 * carry it, any more than a bearer token. The path is logged decoded, so that no spelling of
 * `checkout` (`%63heckout`, `CHECKOUT`, doubled slashes) hides the token from the redaction.
 */
export function redactCheckoutToken(url: string): string {
  const query = url.indexOf('?');
  const path = decodedPath(query === -1 ? url : url.slice(0, query));
  const redacted = path.replace(/([/\\]checkout[/\\]+)[^/\\]+/gi, '$1[redacted]');
  return query === -1 ? redacted : redacted + url.slice(query);
}

/**
 * Fastify's own request serializer (`method`, `url`, `host`, `remoteAddress`, `remotePort`), with
 * the URL's checkout token redacted. Headers and bodies are still never logged.
 */
export const sandboxLogSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactCheckoutToken(request.url),
      host: request.host,
      remoteAddress: request.ip,
      // undefined once the socket is gone; pino then leaves the field out, as Fastify's own does.
      remotePort: request.socket?.remotePort as number,
    };
  },
};
