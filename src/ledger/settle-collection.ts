import { isFinalStatus, type ReferenceStore, type TransactionRecord } from '../references/index.js';
import type { ReviewVerdict } from '../references/review.js';
import type { CollectionTransaction } from '../schemas/collection.js';
import { isPaid, type PaymentObservation } from './is-paid.js';
import { Ledger } from './ledger.js';

export type CollectionSettlement =
  | { outcome: 'paid' | 'failed' | 'pending'; record: TransactionRecord; changed: boolean }
  | { outcome: 'review'; record: TransactionRecord; changed: boolean; verdict: ReviewVerdict }
  /** The record was already success, failed or needs_review: an answer never reopens it. */
  | { outcome: 'already_final'; record: TransactionRecord; changed: false };

/** The one rule of "paid" (`isPaid`, spec rule 5) for every path; a differing amount or reference
 * is `needs_review`. Exactly one caller across processes gets `changed: true` and the effect. */
export function applyCollectionObservation(
  store: Pick<ReferenceStore, 'records'>,
  record: TransactionRecord,
  transaction: CollectionTransaction,
): Promise<CollectionSettlement> {
  return settleCollection(new Ledger(store), record, transaction);
}

/** `applyCollectionObservation` through a given ledger (a reconciler's is fenced by its lease). */
export async function settleCollection(
  ledger: Ledger,
  record: TransactionRecord,
  transaction: CollectionTransaction,
): Promise<CollectionSettlement> {
  // Final, or waiting for a person: an answer never reopens it.
  if (isFinalStatus(record.status) || record.status === 'needs_review') {
    return { outcome: 'already_final', record, changed: false };
  }
  const observation: PaymentObservation = {
    controlNumber: transaction.controlNumber,
    paymentReference: transaction.reference,
    ...(transaction.external_reference
      ? { externalReference: transaction.external_reference }
      : {}),
    amount: transaction.paid_amount ?? transaction.amount,
    status: transaction.status,
  };
  const sameTransaction = isPaid(record, { ...observation, status: 'success' });
  const aboutAnother =
    !sameTransaction.paid && sameTransaction.reason !== 'amount_mismatch'
      ? sameTransaction
      : undefined;

  // A pending answer moves no money; only a final one about another transaction needs a person.
  if (aboutAnother && transaction.status !== 'pending') {
    const verdict: ReviewVerdict = {
      reason: 'reference_mismatch',
      message:
        aboutAnother.reason === 'no_common_reference'
          ? `The platform's answer (${transaction.controlNumber}) shares no reference with ${record.merchantReference}; check which transaction it belongs to.`
          : `The platform's ${aboutAnother.field} differs from the one stored for ${record.merchantReference}; check which transaction was paid.`,
      evidence: { status: transaction },
    };
    return move(ledger, record, verdict, 'needs_review', transaction);
  }

  if (aboutAnother) return { outcome: 'pending', record, changed: false };
  if (transaction.status === 'success') {
    if (sameTransaction.paid) {
      return move(ledger, record, 'paid', 'success', transaction, 'confirmed by status pull');
    }
    const verdict: ReviewVerdict = {
      reason: 'amount_mismatch',
      message: `The platform says ${observation.amount} TZS were paid for ${record.merchantReference}, which asked for ${record.amount} TZS; do not credit it in full until a person checks.`,
      evidence: { status: transaction },
    };
    return move(ledger, record, verdict, 'needs_review', transaction);
  }
  if (transaction.status === 'failed') {
    return move(ledger, record, 'failed', 'failed', transaction, 'the platform says it failed');
  }
  if (record.status === 'unknown') {
    return move(ledger, record, 'pending', 'pending', transaction, 'the platform has it, pending');
  }
  return { outcome: 'pending', record, changed: false };
}

/** One status write; another caller settled the record between our read and it: theirs stands. */
async function move(
  ledger: Ledger,
  record: TransactionRecord,
  outcome: 'paid' | 'failed' | 'pending' | ReviewVerdict,
  to: 'success' | 'failed' | 'pending' | 'needs_review',
  transaction: CollectionTransaction,
  reason?: string,
): Promise<CollectionSettlement> {
  const review = typeof outcome === 'object' ? outcome : undefined;
  const moved = await ledger.move(record.merchantReference, {
    to,
    payload: transaction,
    // A customer-chosen channel (bank, checkout) names its provider only here.
    ...(transaction.provider && { provider: transaction.provider }),
    ...(review && { review }),
    ...(reason && { reason }),
  });
  if (moved.overtaken) return { outcome: 'already_final', record: moved.record, changed: false };
  const { record: after, changed } = moved;
  return review
    ? { outcome: 'review', record: after, changed, verdict: review }
    : { outcome: outcome as 'paid' | 'failed' | 'pending', record: after, changed };
}
