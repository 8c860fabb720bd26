import type { FastifyRequest } from 'fastify';
import { decodedPath } from './control-path.js';

/** Logs redact the checkout's payment token from URLs, however `checkout` is spelled. */
export function redactCheckoutToken(url: string): string {
  const query = url.indexOf('?');
  const path = decodedPath(query === -1 ? url : url.slice(0, query));
  const redacted = path.replace(/([/\\]checkout[/\\]+)[^/\\]+/gi, '$1[redacted]');
  return query === -1 ? redacted : redacted + url.slice(query);
}

export const sandboxLogSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactCheckoutToken(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort as number,
    };
  },
};
