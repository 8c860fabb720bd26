import type { TransactionRecord } from '../../references/index.js';

/**
 * The counts the reconciler reports (its `progress` event and `runOnce()` summary), as the CLI
 * shows them. Declared here by shape so the output code depends on nothing but numbers.
 */
export interface PassCounts {
  checked: number;
  settled: number;
  failed: number;
  review: number;
  pending: number;
  errors: number;
  /** Records handed back unchecked: their lease was nearly over when their turn came. */
  leaseExpired: number;
}

/** What the CLI prints when a pass (or a `--watch` run) ends. */
export interface RunOutcome {
  counts: PassCounts;
  durationMs: number;
  /**
   * Records in `needs_review` in the whole store after the run, not only from this pass;
   * `null` when they could not be counted (the store failed).
   */
  needsReview: number | null;
  exitCode: number;
}

/** A reconciler's review verdict, by shape. */
export interface VerdictView {
  reason: string;
  message: string;
}

export const zeroCounts = (): PassCounts => ({
  checked: 0,
  settled: 0,
  failed: 0,
  review: 0,
  pending: 0,
  errors: 0,
  leaseExpired: 0,
});

/**
 * Totals across the passes of a run from the `progress` events. `--watch` runs many passes and
 * each pass's counts restart from zero; within a pass every event adds one check or one record
 * handed back unchecked (`leaseExpired`), so an event that does not move that sum forward is the
 * first of a new pass and counts in full, and any other adds its difference from the last.
 */
export class PassTotals {
  readonly totals: PassCounts = zeroCounts();
  #previous: PassCounts = zeroCounts();

  add(counts: PassCounts): void {
    const previous = this.#previous;
    const newPass =
      counts.checked + counts.leaseExpired <= previous.checked + previous.leaseExpired;
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
