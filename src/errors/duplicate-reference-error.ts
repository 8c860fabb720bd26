import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * An intent was stored under a merchant reference that the store already holds. Each
 * transaction needs its own merchant reference; reusing one would mix two payments up, so the
 * new intent was not stored and nothing was sent.
 */
export class DuplicateReferenceError extends PesakitError {
  override name = 'DuplicateReferenceError' as string;
  override readonly code = 'duplicate_reference' as const;
  readonly merchantReference: string;

  constructor(merchantReference: string, options?: { cause?: unknown }) {
    super(
      `A transaction with merchant reference ${merchantReference} is already stored. ` +
        'Use a new merchant reference for each transaction (or omit it to have one generated).',
      options,
    );
    this.merchantReference = merchantReference;
  }
}

export const isDuplicateReferenceError = guardFor(
  DuplicateReferenceError,
  'DuplicateReferenceError',
);
