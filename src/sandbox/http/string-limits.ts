import type { FieldErrors } from '../../schemas/error-body.js';

/** Per-field string caps: records live in memory, so no request may park megabytes in one. */
export const STRING_LIMITS: Readonly<Record<string, number>> = {
  callback_url: 2048,
  email: 254,
  name: 255,
  description: 255,
  password: 128,
};

export const DEFAULT_STRING_LIMIT = 2048;

/** Field errors (dotted paths) for every over-long string, walked without recursion. */
export function oversizedStrings(body: unknown): FieldErrors | undefined {
  const errors: FieldErrors = {};
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
