import type { TransactionRecord } from '../references/index.js';
import type { ResolvedOptions } from './options.js';

/** Which schedule a record follows: `unknown` (and stale `initiating`) or `pending`. */
export function scheduleOf(record: TransactionRecord): 'pending' | 'unknown' {
  return record.status === 'pending' ? 'pending' : 'unknown';
}

/** When the record is next due after its `checks`-th check (the last tier repeats), jittered. */
export function nextCheckAt(
  record: TransactionRecord,
  checks: number,
  options: ResolvedOptions,
  now: Date,
  random: () => number = Math.random,
): Date {
  const tiers = options.schedules[scheduleOf(record)];
  const delay = tiers[Math.min(Math.max(checks, 0), tiers.length - 1)] ?? 60_000;
  const spread = delay * options.jitter * (random() * 2 - 1);
  return new Date(now.getTime() + Math.max(1, Math.round(delay + spread)));
}

/** When the send ended (or, never having left `initiating`, when it was written). */
export function attemptTime(record: TransactionRecord): Date {
  return record.attemptedAt ?? record.createdAt;
}

/** A never-checked record is first due one early delay after its attempt; `undefined` once due. */
export function firstDueAt(
  record: TransactionRecord,
  options: ResolvedOptions,
  now: Date,
): Date | undefined {
  if (record.checkCount > 0) return undefined;
  if (record.status === 'initiating') {
    // Most likely in flight: look again after the first pending delay or at the grace's end.
    const graceEnds = record.createdAt.getTime() + options.initiatingGraceMs;
    if (graceEnds <= now.getTime()) return undefined;
    const soon = now.getTime() + (options.schedules.pending[0] ?? 0);
    return new Date(Math.min(graceEnds, soon));
  }
  const first = options.schedules[scheduleOf(record)][0] ?? 0;
  const due = attemptTime(record).getTime() + first;
  return due > now.getTime() ? new Date(due) : undefined;
}

/** True when the record has been tried long enough: a person must look. */
export function exhausted(record: TransactionRecord, options: ResolvedOptions, now: Date): boolean {
  return (
    record.checkCount + 1 >= options.maxAttempts ||
    now.getTime() - attemptTime(record).getTime() >= options.maxAgeMs
  );
}
