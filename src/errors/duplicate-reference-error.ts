import { guardFor, PesakitError } from './pesakit-error.js';

/** The store already holds this merchant reference: nothing stored or sent. Use a new one. */
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
