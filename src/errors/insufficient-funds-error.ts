import { guardFor } from './pesakit-error.js';
import { ValidationError } from './validation-error.js';

/**
 * The 422 for a wallet that does not cover the amount (plus the charge, for disbursement).
 * Nothing was debited. Top the wallet up (airtime: recharge) or send less.
 */
export class InsufficientFundsError extends ValidationError {
  override name = 'InsufficientFundsError' as string;
  override readonly code = 'insufficient_funds' as const;
}

export const isInsufficientFundsError = guardFor(InsufficientFundsError, 'InsufficientFundsError');
