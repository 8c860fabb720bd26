import type { Product } from '../../schemas/product.js';
import type { SandboxContext } from '../context.js';
import type { LedgerEntry } from '../ledger.js';
import { toShillings } from '../money.js';
import type { LogPage } from '../state/paged-log.js';

/** A wallet movement as `GET _control/ledger` lists it: amounts in TZS, debits negative. */
export interface LedgerEntryView {
  seq: number;
  product: Product;
  email: string | null;
  kind: LedgerEntry['kind'];
  amount: number;
  reference: string;
  balance_after: number;
  at: string;
}

/** Entries of every wallet with `id > after`, by id (ids are global and only grow). */
export function ledgerPage(
  context: SandboxContext,
  after = 0,
  limit = 1000,
): LogPage<LedgerEntryView> {
  const rows: LedgerEntryView[] = [];
  let total = 0;
  for (const [key, wallet] of context.wallets.all()) {
    const [product, id] = key.split(':') as [Product, string];
    const email = context.accounts.findById(product, Number(id))?.email ?? null;
    for (const entry of wallet.entries) {
      total = Math.max(total, entry.id);
      if (entry.id <= after) continue;
      rows.push({
        seq: entry.id,
        product,
        email,
        kind: entry.kind,
        amount: toShillings(entry.amount),
        reference: entry.reference,
        balance_after: toShillings(entry.balanceAfter),
        at: entry.at,
      });
    }
  }
  rows.sort((a, b) => a.seq - b.seq);
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items, next: more ? (items.at(-1)?.seq ?? null) : null, total, dropped: 0 };
}
