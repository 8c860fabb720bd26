import { amountToCents, centsToAmount, MAX_AMOUNT_TZS } from '../schemas/amount.js';

/**
 * Shillings on the wire, cents inside. Wallets and the ledger count whole cents so that a
 * thousand payouts of 0.10 add up to exactly 100.00 and the ledger always sums to the balance.
 */
export type Cents = number;

/**
 * The most a wallet may hold: 1,000,000,000,000 TZS (a thousand of the largest single amount,
 * {@link MAX_AMOUNT_TZS}). In cents that is 1e14, far inside the range where a double counts
 * every cent exactly (2^53 ≈ 9e15), so no credit can ever be silently lost to rounding. A
 * credit that would take a balance above it is refused (422) and changes nothing.
 */
export const MAX_WALLET_BALANCE_TZS = 1000 * MAX_AMOUNT_TZS;
export const MAX_WALLET_BALANCE_CENTS: Cents = MAX_WALLET_BALANCE_TZS * 100;

/** Shillings (at most two decimals, as the amount schema guarantees) to whole cents, and back. */
export { amountToCents as toCents, centsToAmount as toShillings };

/** The 422 field message for a credit the wallet cannot take. */
export const WALLET_LIMIT_MESSAGE = `The credit would take the wallet balance above its maximum of ${MAX_WALLET_BALANCE_TZS} TZS.`;
