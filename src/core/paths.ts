import { type Endpoint, type Environment, sandboxPrefixes } from './endpoints.js';

/**
 * The full path of an endpoint in an environment, with its `{name}` parameters filled in.
 * Sandbox paths carry the product prefix (`/api/sandbox/airtime/...`); production paths are the
 * spec's Versioning table, relative to the product's own host.
 */
export function endpointPath(
  endpoint: Pick<Endpoint, 'product' | 'sandboxPath' | 'productionPath'>,
  environment: Environment,
  params: Readonly<Record<string, string>> = {},
): string {
  const template =
    environment === 'sandbox'
      ? sandboxPrefixes[endpoint.product] + endpoint.sandboxPath
      : endpoint.productionPath;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined)
      throw new TypeError(`Missing path parameter "${name}" for ${template}.`);
    return encodePathSegment(name, value);
  });
}

/**
 * Encodes one path segment and refuses the values that would walk out of it (`.`, `..`, empty),
 * as openai-node's path tag does: a provider name must never become `../logout`.
 */
export function encodePathSegment(name: string, value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new TypeError(`Path parameter "${name}" may not be "${value}".`);
  }
  return encodeURIComponent(value);
}
