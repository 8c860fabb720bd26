import type { FieldErrors } from '../../schemas/error-body.js';

/**
 * The longest string the sandbox keeps for a field, by the field's own name; any other string
 * field may be at most {@link DEFAULT_STRING_LIMIT} characters. Every record lives in memory,
 * so without these one request could park megabytes in a `callback_url` (and every callback
 * and status answer would copy it again).
 */
export const STRING_LIMITS: Readonly<Record<string, number>> = {
  callback_url: 2048,
  email: 254,
  name: 255,
  description: 255,
  password: 128,
};

/** The limit for a string field the table does not name. */
export const DEFAULT_STRING_LIMIT = 2048;

/**
 * Field errors for every string in a parsed body that is longer than its limit (dotted paths,
 * as Laravel names them), or `undefined` when all fit. Walks without recursion, so a deeply
 * nested body costs no stack.
 */
export function oversizedStrings(body: unknown): FieldErrors | undefined {
  const errors: FieldErrors = {};
  // Paths are linked to their parent rather than copied: a deeply nested body stays linear.
  const pending: Step[] = [{ value: body, key: undefined, parent: undefined }];
  let found = 0;
  while (pending.length > 0 && found < 20) {
    const step = pending.pop()!;
    const { value } = step;
    if (typeof value === 'string') {
      const limit = STRING_LIMITS[step.key ?? ''] ?? DEFAULT_STRING_LIMIT;
      if (value.length > limit) {
        const field = dottedPath(step);
        errors[field] = [`The ${field} may not be greater than ${limit} characters.`];
        found += 1;
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        pending.push({ value: item, key, parent: step });
      }
    }
  }
  return found > 0 ? errors : undefined;
}

interface Step {
  value: unknown;
  key: string | undefined;
  parent: Step | undefined;
}

function dottedPath(step: Step): string {
  const keys: string[] = [];
  for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.length === 0 ? 'body' : keys.reverse().join('.');
}
