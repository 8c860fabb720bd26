/**
 * TEMPORARY stand-in for the lead's settlement foundation (src/settlement, src/references/review.ts)
 * until `store: needs_review, resolve, effect outbox; settlement` lands on main. Every name here
 * matches /work/brief/foundation.md; after `git merge main` this file only re-exports.
 */
import { EventEmitter } from 'eventemitter3';
import { isPaid } from '../payments/is-paid.js';
import type { ReferenceStore, TransactionRecord } from '../references/types.js';
import type { CollectionTransaction } from '../schemas/collection.js';

export interface ReviewVerdict {
  reason: string;
  message: string;
  evidence?: unknown;
}

export interface EffectContext {
  effectKey: string;
  attempt: number;
}

export interface SettlementHandlers {
  onPaid?(record: TransactionRecord, context: EffectContext): unknown;
  onFailed?(record: TransactionRecord, context: EffectContext): unknown;
  onReview?(record: TransactionRecord, verdict: ReviewVerdict, context: EffectContext): unknown;
}

export interface SettlementResult {
  outcome: 'paid' | 'failed' | 'review' | 'pending' | 'already_final';
  record: TransactionRecord;
  changed: boolean;
  verdict?: ReviewVerdict;
}

export async function applyCollectionObservation(
  store: ReferenceStore,
  record: TransactionRecord,
  transaction: CollectionTransaction,
): Promise<SettlementResult> {
  if (record.status === 'success' || record.status === 'failed') {
    return { outcome: 'already_final', record, changed: false };
  }
  if (transaction.status === 'failed') {
    const { record: next, changed } = await store.transition(record.merchantReference, 'failed', {
      payload: transaction,
    });
    return { outcome: 'failed', record: next, changed };
  }
  if (transaction.status === 'pending') return { outcome: 'pending', record, changed: false };
  const verdict = isPaid(record, {
    controlNumber: transaction.controlNumber,
    paymentReference: transaction.reference,
    externalReference: transaction.external_reference,
    amount: transaction.paid_amount ?? transaction.amount,
    status: transaction.status,
  });
  if (!verdict.paid) {
    return {
      outcome: 'review',
      record,
      changed: false,
      verdict: { reason: verdict.reason, message: verdict.reason, evidence: transaction },
    };
  }
  const { record: next, changed } = await store.transition(record.merchantReference, 'success', {
    payload: transaction,
  });
  return { outcome: 'paid', record: next, changed };
}

export class EffectRunner extends EventEmitter<{
  effect: [{ merchantReference: string; kind: string; attempt: number }];
  effect_failed: [{ merchantReference: string; error: unknown }];
  dead: [{ merchantReference: string }];
}> {
  readonly #store: ReferenceStore;
  readonly #handlers: SettlementHandlers;
  constructor(store: ReferenceStore, handlers: SettlementHandlers, _options?: unknown) {
    super();
    this.#store = store;
    this.#handlers = handlers;
  }
  async runFor(merchantReference: string): Promise<void> {
    const record = await this.#store.get(merchantReference);
    if (!record) return;
    const context = { effectKey: merchantReference, attempt: 1 };
    try {
      if (record.status === 'success') await this.#handlers.onPaid?.(record, context);
      if (record.status === 'failed') await this.#handlers.onFailed?.(record, context);
    } catch (error) {
      this.emit('effect_failed', { merchantReference, error });
    }
  }
  async drain(_options?: { limit?: number }): Promise<number> {
    return 0;
  }
}

/** Moves a record to `needs_review` with the verdict (stand-in: the status does not exist yet). */
export async function markForReview(
  store: ReferenceStore,
  merchantReference: string,
  verdict: ReviewVerdict,
): Promise<{ record: TransactionRecord; changed: boolean }> {
  const record = await store.get(merchantReference);
  if (!record) throw new Error(`no record ${merchantReference} (${verdict.reason})`);
  return { record, changed: false };
}
