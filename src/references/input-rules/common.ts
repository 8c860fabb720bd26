import { z } from 'zod';
import { StoreInputError } from '../../errors/store-input-error.js';
import { withoutControlCharacters } from '../../schemas/control-characters.js';
import type { TransactionStatus } from '../../schemas/transaction-status.js';
import { transactionStatuses } from '../transitions.js';

// References are compared byte for byte: spaces around or control characters (a tab too) would
// make two spellings of one reference, so they are refused rather than trimmed.
export const referenceSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(128, { error: 'must be at most 128 characters' })
  .refine((value) => value.trim() === value, { error: 'must not start or end with spaces' })
  .check(
    withoutControlCharacters((found) => `must not contain control characters (found ${found})`),
  );

const statusError = `must be one of ${transactionStatuses.join(', ')}`;
export const statusSchema = z.enum(
  transactionStatuses as [TransactionStatus, ...TransactionStatus[]],
  { error: statusError },
);

export const dateSchema = z
  .date({ error: 'must be a valid Date' })
  .refine((value) => !Number.isNaN(value.getTime()), { error: 'must be a valid Date' });

// PostgreSQL text cannot hold a NUL: refused in every store, so every store behaves alike.
export const withoutNul = (schema: z.ZodString) =>
  schema.refine((value) => !value.includes('\u0000'), {
    error: 'must not contain a NUL character',
  });

export const shortText = withoutNul(
  z.string({ error: 'must be a string' }).max(1000, { error: 'must be at most 1000 characters' }),
);

export const limitSchema = (max: number) => {
  const error = `must be a whole number from 1 to ${max}`;
  return z.number({ error }).int({ error }).min(1, { error }).max(max, { error });
};

/** A zod failure becomes a `StoreInputError` whose every message names its field. */
export function parse<T>(
  operation: string,
  subject: string,
  schema: z.ZodType<T>,
  input: unknown,
): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : subject;
    errors[field] = [...(errors[field] ?? []), sentence(field, issue.message)];
  }
  throw new StoreInputError(operation, errors);
}

// A shared request rule names its field already ("The amount must …"); a store rule does not,
// and its words may be a metadata key's own ("a", "tab"): only that opening counts as named.
function sentence(field: string, message: string): string {
  const name = field.split('.').at(-1) ?? field;
  const named = message.startsWith(`The ${name} `) ? message : `${field} ${message}`;
  return /[.!?]$/.test(named) ? named : `${named}.`;
}

/** JSON text in every store (memory too), so a value reads back alike from each. */
export function toJsonText(operation: string, field: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new StoreInputError(operation, {
      [field]: [`${field} must be JSON-serialisable (${(error as Error).message})`],
    });
  }
  return text === undefined ? 'null' : text;
}

/** A failure text a person reads: any failure must be recordable, so bounded, a NUL replaced. */
export function storedText(text: string): string {
  return text.slice(0, 2000).replaceAll('\u0000', '\uFFFD');
}

export function toJson(operation: string, field: string, value: unknown): unknown {
  return JSON.parse(toJsonText(operation, field, value));
}

/** Only what is dead is retried by a person: anything else is on its way, or finished. */
export function notDead(operation: string, field: string, status: string): StoreInputError {
  return new StoreInputError(operation, {
    [field]: [`${field} is ${status}, not dead: only a dead one can be retried.`],
  });
}
