import { guardFor, PesakitError } from '../../errors/pesakit-error.js';

/**
 * A fenced write was refused: the worker's lease on the record expired and another worker
 * leased it since. Nothing was written; the new holder decides the record.
 */
export class LeaseLostError extends PesakitError {
  override name = 'LeaseLostError' as string;
  readonly merchantReference: string;

  constructor(merchantReference: string) {
    super(
      `The lease on ${merchantReference} is no longer held by this worker (it expired and another ` +
        'worker leased the record). Nothing was written; raise leaseMs if checks take longer.',
    );
    this.merchantReference = merchantReference;
  }
}

export const isLeaseLostError = guardFor(LeaseLostError, 'LeaseLostError');
