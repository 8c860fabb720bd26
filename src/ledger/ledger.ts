import { isInvalidTransitionError } from '../errors/invalid-transition-error.js';
import { TransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import { publishTransition } from '../observability/transitions.js';
import type { References, TransactionRecord } from '../references/record.js';
import type { ReviewVerdict } from '../references/review.js';
import type { ReferenceStore, ResolveOptions, TransactionIntent } from '../references/types.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';

/** One change of a record: a status, references, or both in one commit. */
export interface Move {
  /** The status to move to; absent, only `references` are attached. */
  to?: TransactionStatus;
  /** The platform's references the change claims for the record, in the same commit. */
  references?: References;
  /** The upstream payload that proved the change. */
  payload?: unknown;
  reason?: string;
  /** Required when moving to `needs_review`. */
  review?: ReviewVerdict;
  /** The provider the answer or callback names; kept only when the record has none yet. */
  provider?: string;
}

export interface MoveResult {
  /** The record as it is after the move, or as the path that moved it first left it. */
  record: TransactionRecord;
  /** This move changed the status (exactly one caller across processes sees `true`). */
  changed: boolean;
  /**
   * Another path (a callback, a pull, a person, another worker) moved the record where this move
   * cannot follow before it committed: their status stands. The platform references this move
   * carried are still attached (the answer that named them is about this record).
   */
  overtaken: boolean;
}

/**
 * Where every record of the store moves: the write-ahead intent, answers, failures, callbacks,
 * pulls, the reconciler's decisions, bulk rows and a person's resolve all come through here, and
 * nothing else calls the store's record-changing methods. It holds the rules every path shares:
 * a refused move because another path got there first is that path's win (decided once, here),
 * every committed change is published on `pesakit:record:transition`, and a reconciler's moves
 * carry its lease's fencing token, so a worker whose lease was taken over writes nothing.
 */
export class Ledger {
  readonly #store: ReferenceStore;
  readonly #fence: string | undefined;

  constructor(store: ReferenceStore, fence?: string) {
    this.#store = store;
    this.#fence = fence;
  }

  /** The same ledger for the holder of one lease: each move is fenced by `leaseToken`. */
  fenced(leaseToken: string): Ledger {
    return new Ledger(this.#store, leaseToken);
  }

  /** Write-ahead: the intent, stored before the request leaves. A duplicate is refused. */
  open(intent: TransactionIntent): Promise<TransactionRecord> {
    return this.#store.createIntent(intent);
  }

  /** Commits one change; the current status again is a no-op (`changed: false`). */
  async move(merchantReference: string, move: Move): Promise<MoveResult> {
    const { to, references, ...rest } = move;
    const details = { ...rest, ...(this.#fence === undefined ? {} : { leaseToken: this.#fence }) };
    const claims = references !== undefined && Object.keys(references).length > 0;
    try {
      if (to === undefined) {
        const record = claims
          ? await this.#store.attachReferences(merchantReference, references)
          : await this.#current(merchantReference);
        return { record, changed: false, overtaken: false };
      }
      const moved = claims
        ? await this.#store.attachAndTransition(merchantReference, references, to, details)
        : await this.#store.transition(merchantReference, to, details);
      if (moved.changed) publishTransition(moved.record, moved.from);
      return { record: moved.record, changed: moved.changed, overtaken: false };
    } catch (error) {
      if (!isInvalidTransitionError(error)) throw error;
      return { record: await this.#current(merchantReference), changed: false, overtaken: true };
    }
  }

  /** A person's decision on a record in `needs_review`; its effect becomes due again. */
  async resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord> {
    const record = await this.#store.resolve(merchantReference, outcome, options);
    publishTransition(record, 'needs_review', 'review');
    return record;
  }

  async #current(merchantReference: string): Promise<TransactionRecord> {
    const record = await this.#store.get(merchantReference);
    if (record === undefined) throw new TransactionNotFoundError(merchantReference);
    return record;
  }
}

/**
 * A person's decision on a record in `needs_review`, the way the review CLI and the operations
 * page make it: committed by the store (`success` or `failed`, the note kept, the effect due
 * again for the application's handler) and published as a `review` transition.
 */
export function resolveReview(
  store: ReferenceStore,
  merchantReference: string,
  outcome: 'success' | 'failed',
  options: ResolveOptions,
): Promise<TransactionRecord> {
  return new Ledger(store).resolve(merchantReference, outcome, options);
}
