import type { BulkRowOutcome, BulkTotals } from './types.js';

/** Counts kept in whole cents for the sums, so 0.1 + 0.2 stays 0.3. */
export class BulkTally {
  readonly #rows: number;
  readonly #amountCents: number;
  #succeededCents = 0;
  #succeededNowCents = 0;
  readonly #counts = {
    done: 0,
    succeeded: 0,
    failed: 0,
    pending: 0,
    unknown: 0,
    skipped: 0,
    sent: 0,
  };

  constructor(amounts: readonly number[]) {
    this.#rows = amounts.length;
    this.#amountCents = amounts.reduce((sum, amount) => sum + cents(amount), 0);
  }

  add(result: BulkRowOutcome): void {
    this.#counts.done += 1;
    if (!result.fromEarlierRun && result.status !== 'skipped') this.#counts.sent += 1;
    if (result.status === 'success') {
      this.#counts.succeeded += 1;
      this.#succeededCents += cents(result.amount);
      if (!result.fromEarlierRun) this.#succeededNowCents += cents(result.amount);
    } else if (result.status === 'failed') this.#counts.failed += 1;
    else if (result.status === 'pending') this.#counts.pending += 1;
    else if (result.status === 'unknown') this.#counts.unknown += 1;
    else this.#counts.skipped += 1;
  }

  totals(): BulkTotals {
    return {
      rows: this.#rows,
      amount: this.#amountCents / 100,
      amountSucceeded: this.#succeededCents / 100,
      amountSucceededNow: this.#succeededNowCents / 100,
      ...this.#counts,
    };
  }
}

/** Shillings to whole cents (amounts have at most two decimals, checked on the way in). */
export function cents(amount: number): number {
  return Math.round(amount * 100);
}
