import type { FastifyRequest } from 'fastify';

/**
 * The origin a browser used to reach the sandbox, for links the sandbox hands out (payment_url).
 * The Host header is what the caller could reach us by (a container name, a LAN address); when
 * it does not make a valid origin, the address the sandbox listens on is used instead.
 */
export function publicOrigin(request: FastifyRequest, fallback: string | undefined): string {
  try {
    const url = new URL(`${request.protocol}://${request.host}`);
    if (url.host !== '' && url.pathname === '/' && url.search === '') return url.origin;
  } catch {
    // fall through to the listening address
  }
  return fallback ?? 'http://127.0.0.1';
}
