import { z } from 'zod';
import * as schemas from '../schemas/index.js';
import { schemaAnnotations } from './schema-annotations.js';
import type { JsonSchema, OpenApiReference } from './types.js';

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

/**
 * The component name of each exported wire schema: its export name without `Schema`, in
 * PascalCase (`loginRequestSchema` → `LoginRequest`), the same name as the SDK's inferred type.
 * A schema exported under two names (`payMobileRequestSchema` is `mnoCollectionRequestSchema`)
 * takes the first in alphabetical order, so the document does not change between runs.
 */
const exportedNames: ReadonlyMap<z.ZodType, string> = (() => {
  const names = new Map<z.ZodType, string>();
  const entries = Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, value] of entries) {
    if (!(value instanceof z.ZodType) || !name.endsWith('Schema') || names.has(value)) continue;
    const base = name.slice(0, -'Schema'.length);
    names.set(value, base.charAt(0).toUpperCase() + base.slice(1));
  }
  return names;
})();

/** The component name of `schema`, or `fallback` for a schema `src/schemas` does not export. */
export function componentName(schema: z.ZodType, fallback: string): string {
  return exportedNames.get(schema) ?? fallback;
}

/**
 * Collects the document's `components.schemas`: each wire schema is converted once and every
 * operation that uses it refers to it by `$ref`, so a generated client gets one named type per
 * shape (three logins share `LoginRequest`).
 */
export class SchemaComponents {
  readonly #schemas = new Map<string, JsonSchema>();

  /**
   * A `$ref` to `schema` as seen from `side`, adding it under its component name on first use.
   * Two different JSON Schemas under one name would make a reference lie, so that throws.
   */
  ref(schema: z.ZodType, side: SchemaSide, fallbackName: string): OpenApiReference {
    const name = componentName(schema, fallbackName);
    const jsonSchema = toOpenApiSchema(schema, side);
    const known = this.#schemas.get(name);
    if (known === undefined) {
      this.#schemas.set(name, jsonSchema);
    } else if (JSON.stringify(known) !== JSON.stringify(jsonSchema)) {
      // zod emits keys in a fixed order, so equal schemas print equally.
      throw new Error(
        `The OpenAPI component ${name} would have two different JSON Schemas (request and ` +
          'response sides differ); give one of the zod schemas its own export.',
      );
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The collected schemas, sorted by name so the printed document is stable. */
  toJSON(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.#schemas].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
