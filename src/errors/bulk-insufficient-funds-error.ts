import { InsufficientFundsError, isInsufficientFundsError } from './insufficient-funds-error.js';

/**
 * The wallet does not cover the rows still to send (amounts, plus charges for payouts), checked
 * before anything was stored or sent. `balance` is what is free: the wallet less the float other
 * batches hold. Top the wallet up, or send fewer rows.
 */
export class BulkInsufficientFundsError extends InsufficientFundsError {
  override name = 'BulkInsufficientFundsError' as string;
  override readonly code = 'bulk_insufficient_funds' as const;
  override readonly source = 'client' as const;
  readonly balance: number;
  readonly required: number;
  /** TZS missing: `required - balance`. */
  readonly shortfall: number;

  constructor(balance: number, required: number, needs = 'the batch needs') {
    const shortfall = Math.round((required - balance) * 100) / 100;
    const message =
      `The wallet holds ${balance} TZS but ${needs} ${required} TZS (${shortfall} TZS short): ` +
      'nothing was stored or sent. Top the wallet up or send fewer rows.';
    super(message, {
      status: 422,
      body: { message, errors: { amount: [message] }, code: 'insufficient_funds' },
      headers: new Headers(),
      method: '',
      path: '',
    });
    this.balance = balance;
    this.required = required;
    this.shortfall = shortfall;
  }
}

export const isBulkInsufficientFundsError = (error: unknown): error is BulkInsufficientFundsError =>
  isInsufficientFundsError(error) && error.code === 'bulk_insufficient_funds';
