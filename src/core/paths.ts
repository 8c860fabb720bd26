import { RequestValidationError } from '../errors/request-validation-error.js';
import { type Endpoint, type Environment, sandboxPrefixes } from './endpoints.js';

/**
 * The full path of an endpoint in an environment, with its `{name}` parameters filled in and
 * encoded. Sandbox paths carry the product prefix (`/api/sandbox/airtime/...`); production paths
 * are the spec's Versioning table, relative to the product's own host. A missing parameter, or
 * one that would leave its path segment (`.`, `..`, empty — as openai-node's path tag refuses:
 * a provider name must never become `../logout`), is a RequestValidationError naming
 * `params.<name>`.
 */
export function endpointPath(
  endpoint: Pick<Endpoint, 'id' | 'method' | 'product' | 'sandboxPath' | 'productionPath'>,
  environment: Environment,
  params: Readonly<Record<string, string>> = {},
): string {
  const template =
    environment === 'sandbox'
      ? sandboxPrefixes[endpoint.product] + endpoint.sandboxPath
      : endpoint.productionPath;
  const errors: Record<string, string[]> = {};
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string') {
      errors[`params.${name}`] = [`Missing path parameter "${name}" for ${template}.`];
    } else if (value === '' || value === '.' || value === '..') {
      errors[`params.${name}`] = [`Path parameter "${name}" may not be "${value}".`];
    }
    return encodeURIComponent(value ?? '');
  });
  if (Object.keys(errors).length > 0) {
    throw new RequestValidationError(endpoint.id, errors, {
      method: endpoint.method,
      path: template,
    });
  }
  return path;
}
