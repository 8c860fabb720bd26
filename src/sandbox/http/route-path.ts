import { type Endpoint, sandboxPrefixes } from '../../core/endpoints.js';

/** The Fastify route of an endpoint: its sandbox path with `{name}` written as `:name`. */
export function routePath(endpoint: Pick<Endpoint, 'product' | 'sandboxPath'>): string {
  return (sandboxPrefixes[endpoint.product] + endpoint.sandboxPath).replace(/\{(\w+)\}/g, ':$1');
}
