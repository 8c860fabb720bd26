import type { TransactionRecord } from './record.js';

/** The memory store hands out copies, so a returned record never changes the store. */
export function copyRecord(record: TransactionRecord): TransactionRecord {
  return {
    ...record,
    createdAt: new Date(record.createdAt),
    updatedAt: new Date(record.updatedAt),
    attemptedAt: record.attemptedAt && new Date(record.attemptedAt),
    finalAt: record.finalAt && new Date(record.finalAt),
    lastCheckedAt: record.lastCheckedAt && new Date(record.lastCheckedAt),
    lastPayload: structuredClone(record.lastPayload),
    metadata: { ...record.metadata },
    account: record.account && { ...record.account },
    review: structuredClone(record.review),
    resolution: record.resolution && { ...record.resolution, at: new Date(record.resolution.at) },
    effect: {
      ...record.effect,
      dueAt: record.effect.dueAt && new Date(record.effect.dueAt),
      completedAt: record.effect.completedAt && new Date(record.effect.completedAt),
    },
  };
}
