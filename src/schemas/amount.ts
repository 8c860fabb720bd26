import { z } from 'zod';

/**
 * The largest amount pesakit accepts, in TZS, on both sides of the wire (SDK and sandbox).
 * The spec shows no upper bound; ours is 1,000,000,000 TZS — far above any mobile-money or
 * bank collection limit, and small enough that `amount * 100` (whole cents, 1e11 at most) is
 * an exact integer in a double and in every store. Without a bound, `1e21` passed and came back
 * from SQLite as `999999999999999900000` (docs/api-contract.md § Amounts).
 */
export const MAX_AMOUNT_TZS = 1_000_000_000;

/**
 * An amount of Tanzanian shillings: a positive, finite number with at most two decimals, at
 * most {@link MAX_AMOUNT_TZS}. The platform sends amounts as JSON numbers; we never round them,
 * so a value that needs rounding is rejected rather than silently changed.
 */
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

/**
 * The amount rule in one check: one call per parse where three chained refinements each cost
 * zod a check run (this schema runs on every initiation and payout; docs/benchmarks.md). The
 * issues are the ones the three refinements raised, field for field: `continue: false` for the
 * two bounds (they were `abort: true`, so a later check does not pile on), `true` for the
 * decimals rule (it was not). Pinned by test/unit/schemas/amount-date.test.ts.
 */
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

// Compared through the shortest decimal form: an absolute epsilon on value * 100 fails for
// large amounts, where float spacing exceeds it. Whole amounts (most) need no formatting.
function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isInteger(value) || Number(value.toFixed(2)) === value;
}

/**
 * Shillings (as the amount schema admits them) to whole cents. Exact for every valid amount:
 * below the bound, `value * 100` is within far less than half a cent of an integer.
 */
export function amountToCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Whole cents back to shillings, for a record or a response body. */
export function centsToAmount(cents: number): number {
  return cents / 100;
}

/** Amounts compared as whole cents, so 0.1 + 0.2 equals 0.3 the way money should. */
export function sameAmount(a: number, b: number): boolean {
  return amountToCents(a) === amountToCents(b);
}
