import { type Endpoint, type Environment, sandboxPrefixes } from '../core/endpoints.js';
import { testProviderSchema } from '../schemas/collection.js';
import { type SchemaComponents, toOpenApiSchema } from './schema-components.js';
import type { OpenApiParameter } from './types.js';

/** An endpoint's path as an OpenAPI template (`{provider}` kept); `endpointPath`'s rule. */
export function pathTemplate(endpoint: Endpoint, environment: Environment): string {
  return environment === 'sandbox'
    ? sandboxPrefixes[endpoint.product] + endpoint.sandboxPath
    : endpoint.productionPath;
}

const pathParameters = (
  components: SchemaComponents,
): Readonly<Record<string, Omit<OpenApiParameter, 'name' | 'in' | 'required'>>> => ({
  provider: {
    description:
      'The payment provider whose sample signed token to return; any other name is a 404.',
    schema: toOpenApiSchema(testProviderSchema, 'input', components.annotations),
  },
});

/** A template's path parameters; an undescribed `{name}` throws so none reaches the document. */
export function pathParametersOf(
  template: string,
  components: SchemaComponents,
): OpenApiParameter[] {
  const described = pathParameters(components);
  return [...template.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => {
    const parameter = described[name];
    if (parameter === undefined) {
      throw new Error(`The path parameter {${name}} of ${template} has no OpenAPI description.`);
    }
    return { name, in: 'path', required: true, ...parameter };
  });
}
