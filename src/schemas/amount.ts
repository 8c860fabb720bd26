import { z } from 'zod';

/** Ours (the spec has none): keeps whole cents an exact integer in a double and every store. */
export const MAX_AMOUNT_TZS = 1_000_000_000;

/** TZS: positive, finite, at most two decimals; never rounded, so such a value is refused. */
export const amountSchema = z
  .number({
    error: (issue) =>
      typeof issue.input === 'number' && !Number.isNaN(issue.input)
        ? 'The amount must be a finite number.'
        : 'The amount must be a number.',
  })
  .check((ctx) => {
    const problem = amountProblem(ctx.value);
    if (problem !== undefined) ctx.issues.push(problem);
  });

/** One check, not three refinements (it runs on every call); the bounds stop further checks. */
function amountProblem(value: number) {
  if (!(value > 0)) return amountIssue(value, 'The amount must be greater than 0.', false);
  if (!(value <= MAX_AMOUNT_TZS)) {
    return amountIssue(value, 'The amount may not be greater than 1000000000.', false);
  }
  if (!hasAtMostTwoDecimals(value)) {
    return amountIssue(value, 'The amount may have at most two decimal places.', true);
  }
  return undefined;
}

function amountIssue(input: number, message: string, keepChecking: boolean) {
  return { code: 'custom' as const, input, path: [], message, continue: keepChecking };
}

export type Amount = z.infer<typeof amountSchema>;

// Through the shortest decimal form: an epsilon on value * 100 fails for large amounts.
function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isInteger(value) || Number(value.toFixed(2)) === value;
}

/** Exact for every valid amount: below the bound, `value * 100` is near an integer. */
export function amountToCents(amount: number): number {
  return Math.round(amount * 100);
}

export function centsToAmount(cents: number): number {
  return cents / 100;
}

/** Amounts compared as whole cents, so 0.1 + 0.2 equals 0.3 the way money should. */
export function sameAmount(a: number, b: number): boolean {
  return amountToCents(a) === amountToCents(b);
}
