import type { TransactionRecord } from '../../src/references/index.js';

export type OutcomeKind = 'paid' | 'failed' | 'review';

export interface Outcome {
  kind: OutcomeKind;
  /** Null for an orphan: a callback that matched no record. */
  record: TransactionRecord | null;
  verdict?: { reason: string; message: string; evidence?: unknown };
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
    onReview: async (
      record: TransactionRecord | null,
      verdict: { reason: string; message: string; evidence?: unknown },
    ) => this.#push({ kind: 'review', record, verdict }),
  };

  /** Resolves with the first (past or future) call of `kind` for `merchantReference`. */
  next(kind: OutcomeKind, merchantReference: string): Promise<Outcome> {
    return this.#first((o) => o.kind === kind && o.record?.merchantReference === merchantReference);
  }

  /** Resolves with the first (past or future) onReview call for a callback matching no record. */
  nextOrphan(): Promise<Outcome> {
    return this.#first((o) => o.kind === 'review' && o.record === null);
  }

  #first(match: (o: Outcome) => boolean): Promise<Outcome> {
    const seen = this.calls.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  count(kind: OutcomeKind, merchantReference: string): number {
    return this.calls.filter(
      (o) => o.kind === kind && o.record?.merchantReference === merchantReference,
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
