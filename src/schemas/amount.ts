import { z } from 'zod';

/**
 * An amount of Tanzanian shillings: a positive, finite number with at most two decimals.
 * The platform sends amounts as JSON numbers; we never round them, so a value that needs
 * rounding is rejected rather than silently changed.
 */
export const amountSchema = z
  .number({
    error: (issue) =>
      typeof issue.input === 'number' && !Number.isNaN(issue.input)
        ? 'The amount must be a finite number.'
        : 'The amount must be a number.',
  })
  .refine((value) => value > 0, { error: 'The amount must be greater than 0.', abort: true })
  .refine(hasAtMostTwoDecimals, { error: 'The amount may have at most two decimal places.' });

export type Amount = z.infer<typeof amountSchema>;

// Compared through the shortest decimal form: an absolute epsilon on value * 100 fails for
// large amounts, where float spacing exceeds it.
function hasAtMostTwoDecimals(value: number): boolean {
  return Number(value.toFixed(2)) === value;
}

/** Amounts compared as whole cents, so 0.1 + 0.2 equals 0.3 the way money should. */
export function sameAmount(a: number, b: number): boolean {
  return Math.round(a * 100) === Math.round(b * 100);
}
