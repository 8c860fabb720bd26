import type { Endpoint, EndpointId } from '../core/endpoints.js';
import { toOpenApiSchema } from './schema-components.js';
import type { JsonSchema, OpenApiOperation, OpenApiParameter } from './types.js';

/** Endpoints the platform also takes as `GET`, body fields in the query (`data[amount]=…`). */
const takenAsQuery: ReadonlySet<string> = new Set<EndpointId>(['engineCallback']);

/** The `GET` twin of a POST whose body may come as a query (`deepObject` fields), id + `Query`. */
export function queryVariantOf(
  endpoint: Endpoint,
  post: OpenApiOperation,
): OpenApiOperation | undefined {
  if (!takenAsQuery.has(endpoint.id) || endpoint.request === undefined) return undefined;
  const body = toOpenApiSchema(endpoint.request, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const required = new Set(body.required ?? []);
  const parameters: OpenApiParameter[] = Object.entries(body.properties ?? {}).map(
    ([name, schema]) => ({
      name,
      in: 'query',
      required: required.has(name),
      description:
        schema.type === 'object'
          ? `The body's \`${name}\` object, one parameter per field: \`${name}[field]=value\`.`
          : `The body's \`${name}\` field${schema.type === 'boolean' ? ' (`true`/`false`, or `1`/`0`)' : ''}.`,
      schema,
      ...(schema.type === 'object' ? { style: 'deepObject', explode: true } : {}),
    }),
  );
  // A query string is never malformed JSON: the 400 of the JSON body does not apply.
  const { 400: _malformedJson, ...responses } = post.responses;
  const { requestBody: _body, ...rest } = post;
  return {
    ...rest,
    operationId: `${endpoint.id}Query`,
    summary: `${endpoint.summary.replace(/ \(also accepted as GET[^)]*\)/, '')} Sent as GET, its fields in the query string.`,
    parameters: [...(post.parameters ?? []), ...parameters],
    responses,
  };
}
