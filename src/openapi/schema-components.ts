import { z } from 'zod';
import { DEFAULT_STRING_LIMIT, STRING_LIMITS } from '../sandbox/http/string-limits.js';
import * as schemas from '../schemas/index.js';
import type { SchemaAnnotations } from './schema-annotations.js';
import type { JsonSchema, OpenApiReference } from './types.js';

/** Requests are described as input (before transforms), responses as output. */
export type SchemaSide = 'input' | 'output';

/** A wire schema as OpenAPI 3.1 JSON Schema: refinements annotated, `$defs` inlined, no `$schema`. */
export function toOpenApiSchema(
  schema: z.ZodType,
  side: SchemaSide,
  annotations: SchemaAnnotations,
): JsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: side,
    unrepresentable: 'any',
    reused: 'inline',
    cycles: 'throw',
    override: ({ zodSchema, jsonSchema: generated, path }) => {
      const annotation = annotations.get(zodSchema);
      if (annotation) Object.assign(generated, annotation);
      if (side === 'input' && generated.type === 'string') capLength(generated, path);
    },
  });
  return jsonSchema;
}

/**
 * Every string a request carries has a length cap, the field's own or the platform's 2048
 * (records are kept whole): the document says it, so a longer value is invalid by it too.
 */
function capLength(generated: JsonSchema, path: readonly (string | number)[]): void {
  const key = path.at(-2) === 'properties' ? String(path.at(-1)) : undefined;
  const limit = (key !== undefined ? STRING_LIMITS[key] : undefined) ?? DEFAULT_STRING_LIMIT;
  generated.maxLength = Math.min(generated.maxLength ?? limit, limit);
}

const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** Component names: the export name without `Schema`, PascalCase; aliases take the first by name. */
const exportedNames: ReadonlyMap<z.ZodType, string> = (() => {
  const names = new Map<z.ZodType, string>();
  const entries = Object.entries(schemas).sort(byName);
  for (const [name, value] of entries) {
    if (!(value instanceof z.ZodType) || !name.endsWith('Schema') || names.has(value)) continue;
    const base = name.slice(0, -'Schema'.length);
    names.set(value, base.charAt(0).toUpperCase() + base.slice(1));
  }
  return names;
})();

export class SchemaComponents {
  readonly #schemas = new Map<string, JsonSchema>();

  constructor(readonly annotations: SchemaAnnotations) {}

  /** A `$ref` to `schema`, registered on first use; two schemas under one name throw. */
  ref(schema: z.ZodType, side: SchemaSide, fallbackName: string): OpenApiReference {
    const name = exportedNames.get(schema) ?? fallbackName;
    const jsonSchema = toOpenApiSchema(schema, side, this.annotations);
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
    return Object.fromEntries([...this.#schemas].sort(byName));
  }
}
