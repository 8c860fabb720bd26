import type { z } from 'zod';
import { componentName } from './component-names.js';
import { type SchemaSide, toOpenApiSchema } from './json-schema.js';
import type { JsonSchema, OpenApiReference } from './types.js';

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
