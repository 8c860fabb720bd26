/**
 * Shillings on the wire, cents inside. Wallets and the ledger count whole cents so that a
 * thousand payouts of 0.10 add up to exactly 100.00 and the ledger always sums to the balance.
 */
export type Cents = number;

/** Shillings (at most two decimals, as the amount schema guarantees) to whole cents. */
export function toCents(shillings: number): Cents {
  return Math.round(shillings * 100);
}

/** Whole cents back to shillings for a response body. */
export function toShillings(cents: Cents): number {
  return cents / 100;
}
