import { guardFor } from './pesakit-error.js';
import { ValidationError } from './validation-error.js';

/** 422: the wallet does not cover amount plus charge; nothing debited. Top up or send less. */
export class InsufficientFundsError extends ValidationError {
  override name = 'InsufficientFundsError' as string;
  override readonly code: 'insufficient_funds' | 'bulk_insufficient_funds' = 'insufficient_funds';
}

export const isInsufficientFundsError = guardFor(InsufficientFundsError, 'InsufficientFundsError');
