import type { TransactionRecord } from './types.js';

/**
 * Why automation handed a transaction to a person. A record in `needs_review` carries one of
 * these, and only `store.resolve()` moves it on: the SDK never guesses where money is at stake.
 */
export const reviewReasons = [
  /** The platform says success, but for another amount (an under- or overpayment). */
  'amount_mismatch',
  /** The platform says success, but one of the references differs from the stored one. */
  'reference_mismatch',
  /** A callback claimed success; the platform's own status does not confirm it. */
  'claim_not_confirmed',
  /** A callback that matches no stored transaction. */
  'orphan',
  /** The outcome is unknown and there is no platform reference to pull it by. */
  'no_platform_reference',
  /** More than one platform record could be this transaction (e.g. payout history rows). */
  'ambiguous_match',
  /** The evidence neither proves nor disproves the outcome (e.g. an airtime wallet balance). */
  'ambiguous_evidence',
  /** The reconciler reached its maximum age or number of attempts without a final answer. */
  'max_attempts',
] as const;

export type ReviewReason = (typeof reviewReasons)[number];

/** What a person needs to decide a transaction automation could not. */
export interface ReviewVerdict {
  /** Machine-readable: alert and route on it. */
  reason: ReviewReason;
  /** One sentence for a person: what was seen, and what to check. */
  message: string;
  /** The answers and payloads that led here (status pulls, callback bodies), as JSON. */
  evidence?: unknown;
}

/** How a person closed a `needs_review` transaction (`store.resolve`). */
export interface Resolution {
  status: 'success' | 'failed';
  note: string;
  /** Who decided, when given. */
  by: string | null;
  at: Date;
}

/** What `store.resolve()` takes besides the outcome. */
export interface ResolveOptions {
  /** Why: kept with the record for the audit trail. Required. */
  note: string;
  /** Who decided (a name, an email). */
  by?: string;
  /** When; defaults to now. */
  at?: Date;
}

/**
 * The `needs_review` queue: what automation handed to a person, and the person's decision.
 * One part of `ReferenceStore`.
 */
export interface ReviewQueue {
  /**
   * A person's decision on a `needs_review` record: moves it to `success` or `failed`, records
   * the note (and who, when), and makes the effect due again so `onPaid` / `onFailed` run.
   * From any other status → `InvalidTransitionError`.
   */
  resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord>;
  /** Records in `needs_review`, by merchant reference, after `after` when given. */
  listReview(options?: { limit?: number; after?: string }): Promise<TransactionRecord[]>;
}
