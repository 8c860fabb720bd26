import type { FastifyRequest } from 'fastify';
import { redactUrl } from '../../internal/redaction.js';

/** Only these fields of a request are logged; its URL with tokens redacted, however spelled. */
export const sandboxLogSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort as number,
    };
  },
};
