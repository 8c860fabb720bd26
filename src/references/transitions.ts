import type { TransactionStatus } from './types.js';

/**
 * Where each status may go. Status only moves forward:
 * - `initiating` may become anything: the answer (or its absence) decides.
 * - `pending` never becomes `unknown`: the platform has acknowledged the transaction, so its
 *   state can always be pulled; a failed pull is a failed pull, not a new unknown.
 * - `unknown` goes back to `pending` when a pull finds the transaction still in progress.
 * - `success` and `failed` are final.
 */
export const allowedTransitions: Readonly<Record<TransactionStatus, readonly TransactionStatus[]>> =
  {
    initiating: ['pending', 'unknown', 'success', 'failed'],
    pending: ['success', 'failed'],
    unknown: ['pending', 'success', 'failed'],
    success: [],
    failed: [],
  };

export const transactionStatuses: readonly TransactionStatus[] = [
  'initiating',
  'pending',
  'unknown',
  'success',
  'failed',
];

/** Statuses the reconciler still has to resolve. */
export const openStatuses: readonly TransactionStatus[] = ['initiating', 'pending', 'unknown'];

/** True for `success` and `failed`, which never change. */
export function isFinalStatus(status: TransactionStatus): boolean {
  return allowedTransitions[status].length === 0;
}

/** True when `from → to` is in {@link allowedTransitions} (a same-status move is not). */
export function canTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return allowedTransitions[from].includes(to);
}
