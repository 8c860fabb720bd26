import type { TransactionStatus } from './types.js';

/**
 * Where each status may go. Status only moves forward:
 * - `initiating` may become anything: the answer (or its absence) decides.
 * - `pending` never becomes `unknown`: the platform has acknowledged the transaction, so its
 *   state can always be pulled; a failed pull is a failed pull, not a new unknown.
 * - `unknown` goes back to `pending` when a pull finds the transaction still in progress.
 * - any open status may become `needs_review`; nothing automatic leaves it — only a person,
 *   through `store.resolve()`, moves it to `success` or `failed`.
 * - `success` and `failed` are final.
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

export const transactionStatuses: readonly TransactionStatus[] = [
  'initiating',
  'pending',
  'unknown',
  'needs_review',
  'success',
  'failed',
];

/** Statuses the reconciler still has to resolve. `needs_review` waits for a person instead. */
export const openStatuses: readonly TransactionStatus[] = ['initiating', 'pending', 'unknown'];

/** True for `success` and `failed`, which never change. */
export function isFinalStatus(status: TransactionStatus): boolean {
  return status === 'success' || status === 'failed';
}

/** True when `from → to` is in {@link allowedTransitions} (a same-status move is not). */
export function canTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return allowedTransitions[from].includes(to);
}
