import { BulkInsufficientFundsError } from '../../errors/bulk-insufficient-funds-error.js';
import type { ReferenceStore } from '../../references/index.js';
import type { BulkRow } from './bulk-product.js';
import { cents } from './totals.js';

/** How a product's rows draw on its wallet. */
export interface BulkFloat {
  /** The wallet balance, TZS, read from the platform. */
  balance(): Promise<number>;
  /** Whole cents one row takes from the wallet (amount, plus charge for a payout). */
  cost(row: BulkRow): number;
  /** The account whose float the store reserves per row; none: the balance is only checked. */
  account?: string;
}

/**
 * How many of `rows`, in order, the wallet covers before the first is sent. Reserving products
 * keep the balance read in the store, less what other open payouts hold there. Short: refused
 * whole, nothing stored or sent, unless `partial`.
 */
export async function rowsThatFit(
  float: BulkFloat,
  store: ReferenceStore,
  rows: readonly BulkRow[],
  partial: boolean,
): Promise<number> {
  const costs = rows.map((row) => float.cost(row));
  const { account } = float;
  const wallet =
    account === undefined
      ? { balance: await float.balance(), reserved: 0 }
      : await store.recordWalletBalance(account, float.balance);
  const free = cents(wallet.balance) - cents(wallet.reserved);
  const required = costs.reduce((sum, cost) => sum + cost, 0);
  if (required <= free) return rows.length;
  if (!partial) throw new BulkInsufficientFundsError(Math.max(free, 0) / 100, required / 100);
  let fit = 0;
  let spent = 0;
  for (const cost of costs) {
    if (spent + cost > free) break;
    spent += cost;
    fit += 1;
  }
  return fit;
}
