import { emptyProgress, type ReconcileProgress } from '../../reconciler/events.js';
import type { EffectKind } from '../../references/effects.js';
import type { TransactionRecord } from '../../references/index.js';

export type PassCounts = ReconcileProgress;

export interface RunOutcome {
  counts: PassCounts;
  durationMs: number;
  /** Records in `needs_review` in the whole store after the run; `null` when the count failed. */
  needsReview: number | null;
  /** Due effects, by kind, left for the processes that have handlers (the CLI has none). */
  unhandledEffects: Partial<Record<EffectKind, number>>;
  exitCode: number;
}

/** Totals across `--watch` passes: an event not moving a record's count forward is a new pass. */
export class PassTotals {
  readonly totals: PassCounts = emptyProgress();
  #previous: PassCounts = emptyProgress();

  add(counts: PassCounts): void {
    const previous = this.#previous;
    const seen = (c: PassCounts) => c.checked + c.leaseExpired + c.notVisible;
    const newPass = seen(counts) <= seen(previous);
    for (const key of Object.keys(this.totals) as (keyof PassCounts)[]) {
      this.totals[key] += newPass ? counts[key] : counts[key] - previous[key];
    }
    this.#previous = { ...counts };
  }
}

/** The fields of a record every output line carries. Never a payload: those may hold PII. */
export function recordFields(record: TransactionRecord) {
  return {
    merchantReference: record.merchantReference,
    product: record.product,
    flow: record.flow,
    amount: record.amount,
    status: record.status,
  };
}
