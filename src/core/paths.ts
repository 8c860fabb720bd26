import { RequestValidationError } from '../errors/request-validation-error.js';
import { type Endpoint, type Environment, sandboxPrefixes } from './endpoints.js';

/** An endpoint's path, `{name}` encoded; a missing or segment-leaving one is refused. */
export function endpointPath(
  endpoint: Pick<Endpoint, 'id' | 'method' | 'product' | 'sandboxPath' | 'productionPath'>,
  environment: Environment,
  params: Readonly<Record<string, string>> = {},
): string {
  const template = endpointTemplate(endpoint, environment);
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

/** An endpoint's path with `{name}` placeholders, as `url.template` names it. */
export function endpointTemplate(
  endpoint: Pick<Endpoint, 'product' | 'sandboxPath' | 'productionPath'>,
  environment: Environment,
): string {
  return environment === 'sandbox'
    ? sandboxPrefixes[endpoint.product] + endpoint.sandboxPath
    : endpoint.productionPath;
}
