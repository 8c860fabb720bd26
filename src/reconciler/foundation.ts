/**
 * TEMPORARY stand-in for the lead's settlement foundation (src/references/review.ts,
 * src/settlement/*) until it lands on main; replaced by re-exports on merge.
 */
import { isPaid } from '../payments/is-paid.js';
import type { ReferenceStore, TransactionRecord } from '../references/index.js';
import type { CollectionTransaction } from '../schemas/collection.js';

export type ReviewReason =
  | 'amount_mismatch'
  | 'reference_mismatch'
  | 'claim_not_confirmed'
  | 'orphan'
  | 'no_platform_reference'
  | 'ambiguous_match'
  | 'ambiguous_evidence'
  | 'max_attempts';

export interface ReviewVerdict {
  reason: ReviewReason;
  message: string;
  evidence?: unknown;
}

export interface EffectContext {
  effectKey: string;
  attempt: number;
}

export interface SettlementHandlers {
  onPaid?: (record: TransactionRecord, ctx: EffectContext) => unknown;
  onFailed?: (record: TransactionRecord, ctx: EffectContext) => unknown;
  onReview?: (record: TransactionRecord, verdict: ReviewVerdict, ctx: EffectContext) => unknown;
}

export interface CollectionSettlement {
  outcome: 'paid' | 'failed' | 'review' | 'pending' | 'already_final';
  record: TransactionRecord;
  changed: boolean;
  verdict?: ReviewVerdict;
}

export async function applyCollectionObservation(
  store: ReferenceStore,
  record: TransactionRecord,
  transaction: CollectionTransaction,
): Promise<CollectionSettlement> {
  if (record.status === 'success' || record.status === 'failed') {
    return { outcome: 'already_final', record, changed: false };
  }
  if (transaction.status === 'failed') {
    const moved = await store.transition(record.merchantReference, 'failed', {
      payload: transaction,
    });
    return { outcome: 'failed', ...moved };
  }
  if (transaction.status !== 'success') return { outcome: 'pending', record, changed: false };
  const verdict = isPaid(record, {
    controlNumber: transaction.controlNumber,
    paymentReference: transaction.reference,
    ...(transaction.external_reference
      ? { externalReference: transaction.external_reference }
      : {}),
    amount: transaction.paid_amount ?? transaction.amount,
    status: transaction.status,
  });
  if (verdict.paid) {
    const moved = await store.transition(record.merchantReference, 'success', {
      payload: transaction,
    });
    return { outcome: 'paid', ...moved };
  }
  const review: ReviewVerdict = {
    reason: verdict.reason === 'amount_mismatch' ? 'amount_mismatch' : 'reference_mismatch',
    message: `The platform reports success but ${verdict.reason}.`,
    evidence: transaction,
  };
  return { outcome: 'review', record, changed: false, verdict: review };
}

/** Stand-in EffectRunner: runs the handler once per call (the real one claims through the store). */
export class EffectRunner {
  readonly #store: ReferenceStore;
  readonly #handlers: SettlementHandlers;
  readonly #done = new Set<string>();

  constructor(store: ReferenceStore, handlers: SettlementHandlers) {
    this.#store = store;
    this.#handlers = handlers;
  }

  async runFor(merchantReference: string): Promise<void> {
    if (this.#done.has(merchantReference)) return;
    const record = await this.#store.get(merchantReference);
    if (!record) return;
    const ctx = { effectKey: merchantReference, attempt: 1 };
    this.#done.add(merchantReference);
    if (record.status === 'success') await this.#handlers.onPaid?.(record, ctx);
    if (record.status === 'failed') await this.#handlers.onFailed?.(record, ctx);
  }

  async drain(_options?: { limit?: number }): Promise<number> {
    return 0;
  }
}

/** Moves a record to needs_review (the foundation's transition with `review`). */
export async function moveToReview(
  store: ReferenceStore,
  merchantReference: string,
  verdict: ReviewVerdict,
): Promise<{ record: TransactionRecord; changed: boolean }> {
  return store.transition(
    merchantReference,
    'needs_review' as never,
    {
      review: verdict,
      payload: verdict.evidence,
      reason: verdict.message,
    } as never,
  );
}
