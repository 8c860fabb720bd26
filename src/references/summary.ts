import type { Product } from '../schemas/product.js';
import { resolveProvider } from '../schemas/provider.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import type { TransactionRecord } from './record.js';
import { openStatuses } from './transitions.js';
import type { StoreSummary } from './types.js';

/** The operator a record's MSISDN belongs to, stored with the intent; null without one. */
export function providerOf(msisdn: string | undefined): string | null {
  return (msisdn !== undefined && resolveProvider(msisdn)) || null;
}

/** The memory store's summary; the SQL stores count in the database with the same result. */
export function summarizeRecords(records: Iterable<TransactionRecord>): StoreSummary {
  const counts = new Map<string, { product: Product; status: TransactionStatus; count: number }>();
  let oldestOpenAt: Date | null = null;
  for (const { product, status, createdAt } of records) {
    const key = `${product}:${status}`;
    const entry = counts.get(key) ?? { product, status, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
    if (openStatuses.includes(status) && (oldestOpenAt === null || createdAt < oldestOpenAt)) {
      oldestOpenAt = new Date(createdAt);
    }
  }
  return { counts: [...counts.values()].sort(bySummaryOrder), oldestOpenAt };
}

/** Product, then status, so every store lists the counts in one order. */
export function bySummaryOrder(
  a: { product: string; status: string },
  b: { product: string; status: string },
): number {
  return a.product.localeCompare(b.product) || a.status.localeCompare(b.status);
}
