import { z } from 'zod';
import * as schemas from '../schemas/index.js';

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
