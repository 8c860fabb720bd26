import { amountToCents, centsToAmount, MAX_AMOUNT_TZS } from '../schemas/amount.js';

/** Shillings on the wire, whole cents inside, so the ledger always sums to the balance. */
export type Cents = number;

/** The most a wallet may hold: 1e12 TZS, 1e14 cents, exact in a double; above it is a 422. */
export const MAX_WALLET_BALANCE_TZS = 1000 * MAX_AMOUNT_TZS;
export const MAX_WALLET_BALANCE_CENTS: Cents = MAX_WALLET_BALANCE_TZS * 100;

/** Shillings (at most two decimals, as the amount schema guarantees) to whole cents, and back. */
export { amountToCents as toCents, centsToAmount as toShillings };

export const WALLET_LIMIT_MESSAGE = `The credit would take the wallet balance above its maximum of ${MAX_WALLET_BALANCE_TZS} TZS.`;
