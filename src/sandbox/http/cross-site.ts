import type { FastifyRequest } from 'fastify';

const JSON_TYPE = /^application\/([\w.-]+\+)?json(\s*;.*)?$/i;

/** Why a state-changing control request looks forged (not JSON, or `Sec-Fetch-Site` foreign). */
export function forgeryRefusal(
  request: FastifyRequest,
): { status: 403 | 415; message: string } | undefined {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    return {
      status: 403,
      message: `The control API refuses requests from other web pages (Sec-Fetch-Site: ${site}).`,
    };
  }
  const type = request.headers['content-type'];
  if (type === undefined || !JSON_TYPE.test(type)) {
    return {
      status: 415,
      message:
        'Control API POSTs need Content-Type: application/json (send {} when there is nothing to say).',
    };
  }
  return undefined;
}
