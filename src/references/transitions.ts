import type { TransactionStatus } from '../schemas/transaction-status.js';

/**
 * Status only moves forward. `pending` never becomes `unknown`: an acknowledged transaction can
 * always be pulled. `unknown` goes back to `pending` when a pull finds it in progress. Only a
 * person (`store.resolve()`) leaves `needs_review`.
 */
export const allowedTransitions: Readonly<Record<TransactionStatus, readonly TransactionStatus[]>> =
  {
    initiating: ['pending', 'unknown', 'needs_review', 'success', 'failed'],
    pending: ['needs_review', 'success', 'failed'],
    unknown: ['pending', 'needs_review', 'success', 'failed'],
    needs_review: [],
    success: [],
    failed: [],
  };

export const transactionStatuses = Object.keys(allowedTransitions) as readonly TransactionStatus[];

/** Statuses the reconciler still has to resolve. `needs_review` waits for a person instead. */
export const openStatuses: readonly TransactionStatus[] = ['initiating', 'pending', 'unknown'];

export function isFinalStatus(status: TransactionStatus): boolean {
  return status === 'success' || status === 'failed';
}

export function canTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return allowedTransitions[from].includes(to);
}
