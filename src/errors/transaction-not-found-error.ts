import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * A store operation named a merchant reference the store does not hold. Lookups (`get`,
 * `records.find`) answer `undefined` instead; this is for changes, which need a record.
 */
export class TransactionNotFoundError extends PesakitError {
  override name = 'TransactionNotFoundError' as string;
  override readonly code = 'transaction_not_found' as const;
  readonly merchantReference: string;

  constructor(
    merchantReference: string,
    hint = 'Store the intent (records.create) before attaching references or changing its status.',
  ) {
    super(`No transaction with merchant reference ${merchantReference} is stored. ${hint}`);
    this.merchantReference = merchantReference;
  }
}

export const isTransactionNotFoundError = guardFor(
  TransactionNotFoundError,
  'TransactionNotFoundError',
);
