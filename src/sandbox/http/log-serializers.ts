import type { FastifyRequest } from 'fastify';

/**
 * A hosted checkout's payment token is in its URLs (`/checkout/<token>`, `…/card`,
 * `…/status`), and whoever holds it can open the customer's payment page: a log line must not
 * carry it, any more than a bearer token.
 */
const checkoutToken = /(\/checkout\/)[^/?#]+/g;

export function redactCheckoutToken(url: string): string {
  return url.replace(checkoutToken, '$1[redacted]');
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
