import { z } from 'zod';

/** Laravel's error body; `code` is ours where the status cannot say (`insufficient_funds`). */
export const errorBodySchema = z.looseObject({
  message: z.string(),
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const validationErrorBodySchema = z.looseObject({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
  code: z.string().optional(),
});
export type ValidationErrorBody = z.infer<typeof validationErrorBodySchema>;

/** Field errors keyed by dotted path, as Laravel reports them. */
export type FieldErrors = Record<string, string[]>;

/** With the input, a missing field reads "The x field is required."; no path → `body`. */
export function fieldErrorsFrom(error: z.ZodError, input?: unknown): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
    let message = issue.message;
    if (issue.path.length === 0 && issue.code === 'invalid_type') {
      message = 'The request body must be a JSON object.';
    } else if (issue.code === 'invalid_type' && isMissing(input, issue.path)) {
      message = `The ${key} field is required.`;
    }
    errors[key] = [...(errors[key] ?? []), message];
  }
  return errors;
}

function isMissing(input: unknown, path: readonly PropertyKey[]): boolean {
  let value: unknown = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return true;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value === undefined || value === null;
}

/** Laravel's summary line: the first message, plus how many more there are. */
export function summarizeFieldErrors(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  return more > 0 ? `${first} (and ${more} more error${more === 1 ? '' : 's'})` : first;
}
