import { z } from 'zod';
import { schemaAnnotations } from './schema-annotations.js';
import type { JsonSchema } from './types.js';

/**
 * Which side of a schema to describe. Requests are what a client may send (`input`: before
 * `.trim()` or `.toLowerCase()` run); responses are what a client receives (`output`).
 */
export type SchemaSide = 'input' | 'output';

/**
 * Converts a wire schema to the JSON Schema of an OpenAPI 3.1 document with zod's own
 * `z.toJSONSchema`.
 *
 * - `unrepresentable: 'any'`: a `.refine` check (an amount's decimals, a provider prefix) has no
 *   JSON Schema form; it is left out rather than failing the build, and the shared schemas that
 *   rely on one get a human description instead ({@link schemaAnnotations}).
 * - `reused: 'inline'` and `cycles: 'throw'`: zod would otherwise move shared parts to `$defs`,
 *   whose `#/$defs/...` references would point at the OpenAPI document's root once embedded.
 * - The `$schema` keyword is dropped: `jsonSchemaDialect` states the dialect once for the document.
 */
export function toOpenApiSchema(schema: z.ZodType, side: SchemaSide): JsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: side,
    unrepresentable: 'any',
    reused: 'inline',
    cycles: 'throw',
    override: ({ zodSchema, jsonSchema: generated }) => {
      const annotation = schemaAnnotations.get(zodSchema);
      if (annotation) Object.assign(generated, annotation);
    },
  });
  return jsonSchema;
}
