import { InsufficientFundsError } from '../../errors/insufficient-funds-error.js';

/**
 * The wallet does not cover the rows still to send, checked before anything was stored or sent.
 * Recharge the wallet, or send a smaller batch.
 */
export class BulkInsufficientFundsError extends InsufficientFundsError {
  override readonly code = 'bulk_insufficient_funds' as const;
  override readonly source = 'client' as const;
  readonly balance: number;
  readonly required: number;

  constructor(balance: number, required: number) {
    const message =
      `The wallet holds ${balance} TZS but the batch needs ${required} TZS: nothing was stored ` +
      'or sent. Recharge the wallet (airtime.recharge) or send fewer rows.';
    super(message, {
      status: 422,
      body: { message, errors: { amount: [message] }, code: 'insufficient_funds' },
      headers: new Headers(),
      method: '',
      path: '',
    });
    this.balance = balance;
    this.required = required;
  }
}
