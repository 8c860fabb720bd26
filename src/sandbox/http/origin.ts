import type { FastifyRequest } from 'fastify';

/** The origin the caller reached the sandbox by (Host), for payment_url; else the listen address. */
export function publicOrigin(request: FastifyRequest, fallback: string | undefined): string {
  try {
    const url = new URL(`${request.protocol}://${request.host}`);
    if (url.host !== '' && url.pathname === '/' && url.search === '') return url.origin;
  } catch {
    // fall through to the listening address
  }
  return fallback ?? 'http://127.0.0.1';
}
