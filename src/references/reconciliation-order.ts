import type { TransactionRecord } from './record.js';

/** Where a record stands in creation order (a page's `after` is one). */
type CreationKey = Pick<TransactionRecord, 'createdAt' | 'merchantReference'>;

/** Ties broken by merchant reference, so every store returns the same order. */
function byReference(a: CreationKey, b: CreationKey): number {
  const p = a.merchantReference;
  const q = b.merchantReference;
  return p < q ? -1 : p > q ? 1 : 0;
}

/**
 * `records.list`'s order: never checked first (maybe stuck since a crash), then the longest
 * unchecked, then the oldest. The SQL stores say the same in ORDER BY.
 */
export function compareForReconciliation(a: TransactionRecord, b: TransactionRecord): number {
  if (a.lastCheckedAt === null || b.lastCheckedAt === null) {
    if (a.lastCheckedAt !== b.lastCheckedAt) return a.lastCheckedAt === null ? -1 : 1;
  } else if (a.lastCheckedAt.getTime() !== b.lastCheckedAt.getTime()) {
    return a.lastCheckedAt.getTime() - b.lastCheckedAt.getTime();
  }
  return byCreation(a, b);
}

/** `records.list({ oldestFirst })`'s order: the oldest created first. */
export function byCreation(a: CreationKey, b: CreationKey): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || byReference(a, b);
}

/** `schedule.lease`'s order: never scheduled first, then the earliest due. */
export function byDueTime(
  a: { record: TransactionRecord; nextCheckAt: Date | null },
  b: { record: TransactionRecord; nextCheckAt: Date | null },
): number {
  const x = a.nextCheckAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const y = b.nextCheckAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  return x !== y ? (x < y ? -1 : 1) : byReference(a.record, b.record);
}

/** Effects' order: the oldest due first. */
export function byEffectDue(a: TransactionRecord, b: TransactionRecord): number {
  const due = (a.effect.dueAt?.getTime() ?? 0) - (b.effect.dueAt?.getTime() ?? 0);
  return due || byReference(a, b);
}
