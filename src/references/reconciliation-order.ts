import type { TransactionRecord } from './types.js';

/**
 * The order the reconciler works in: records never checked first (they may be stuck since a
 * crash), then the longest unchecked, then the oldest; the merchant reference breaks ties so
 * every store returns the same order. The SQL stores express the same order in ORDER BY.
 */
export function compareForReconciliation(a: TransactionRecord, b: TransactionRecord): number {
  if (a.lastCheckedAt === null || b.lastCheckedAt === null) {
    if (a.lastCheckedAt !== b.lastCheckedAt) return a.lastCheckedAt === null ? -1 : 1;
  } else if (a.lastCheckedAt.getTime() !== b.lastCheckedAt.getTime()) {
    return a.lastCheckedAt.getTime() - b.lastCheckedAt.getTime();
  }
  if (a.createdAt.getTime() !== b.createdAt.getTime()) {
    return a.createdAt.getTime() - b.createdAt.getTime();
  }
  return a.merchantReference < b.merchantReference
    ? -1
    : a.merchantReference > b.merchantReference
      ? 1
      : 0;
}
