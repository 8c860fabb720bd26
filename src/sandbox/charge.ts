import { type Cents, toCents } from './money.js';

/** The disbursement charge; the spec names it only, the formula is ours (docs/sandbox.md § Charge). */
export type ChargeRule =
  | ((amount: number) => number)
  | { percent?: number | undefined; minimum?: number | undefined };

/** The charge in cents; a function's result is rounded to cents, a percentage up to a shilling. */
export function chargeFor(rule: ChargeRule, amount: number): Cents {
  if (typeof rule === 'function') {
    const charge = rule(amount);
    if (!Number.isFinite(charge) || charge < 0) {
      throw new RangeError(`The charge function returned ${charge}; it must be a number >= 0.`);
    }
    return toCents(charge);
  }
  const percent = rule.percent ?? 1;
  const minimum = rule.minimum ?? 100;
  // Work in cents and trim float noise (1.1% of 10 000 is 110.00000000000001) before rounding up.
  const raw = (toCents(amount) * percent) / 100 / 100;
  const shillings = Math.ceil(Math.round(raw * 1e6) / 1e6);
  return toCents(Math.max(shillings, minimum));
}
