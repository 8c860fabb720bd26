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
  /** Logs in first: debits recorded while the balance is read count twice, so the read is short. */
  ready?: () => Promise<void>;
}

/**
 * Before the first row is sent: the wallet must cover `rows`, else the batch is refused whole,
 * nothing stored or sent. Reserving products keep the balance read in the store, less what
 * payouts hold there (see `WalletFloat`); `partial` sends anyway, and the store refuses the
 * first row that does not fit, which stops the batch there.
 */
export async function checkFloat(
  float: BulkFloat,
  store: Pick<ReferenceStore, 'wallets'>,
  rows: readonly BulkRow[],
  partial: boolean,
): Promise<void> {
  const required = rows.reduce((sum, row) => sum + float.cost(row), 0);
  const { account } = float;
  await float.ready?.();
  const wallet =
    account === undefined
      ? { balance: await float.balance(), reserved: 0 }
      : await store.wallets.recordBalance(account, float.balance);
  const free = cents(wallet.balance) - cents(wallet.reserved);
  if (required > free && !partial) {
    throw new BulkInsufficientFundsError(Math.max(free, 0) / 100, required / 100);
  }
}
