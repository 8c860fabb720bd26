import type { TransactionRecord } from '../../src/references/index.js';

export type OutcomeKind = 'paid' | 'failed' | 'review';

export interface Outcome {
  kind: OutcomeKind;
  record: TransactionRecord;
  verdict?: { reason: string; message: string };
}

/**
 * The merchant's handlers as a test sees them: every call is recorded, and a test can wait for
 * the first call of a kind for one merchant reference (the receiver's work happens after the
 * 200, so tests observe the handlers rather than sleep).
 */
export class Outcomes {
  readonly calls: Outcome[] = [];
  readonly #waiters: Array<{ match: (o: Outcome) => boolean; resolve: (o: Outcome) => void }> = [];

  readonly handlers = {
    onPaid: async (record: TransactionRecord) => this.#push({ kind: 'paid', record }),
    onFailed: async (record: TransactionRecord) => this.#push({ kind: 'failed', record }),
    onReview: async (record: TransactionRecord, verdict: { reason: string; message: string }) =>
      this.#push({ kind: 'review', record, verdict }),
  };

  /** Resolves with the first (past or future) call of `kind` for `merchantReference`. */
  next(kind: OutcomeKind, merchantReference: string): Promise<Outcome> {
    const match = (o: Outcome) =>
      o.kind === kind && o.record.merchantReference === merchantReference;
    const seen = this.calls.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  count(kind: OutcomeKind, merchantReference: string): number {
    return this.calls.filter(
      (o) => o.kind === kind && o.record.merchantReference === merchantReference,
    ).length;
  }

  #push(outcome: Outcome) {
    this.calls.push(outcome);
    for (const waiter of [...this.#waiters]) {
      if (waiter.match(outcome)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(outcome);
      }
    }
  }
}
