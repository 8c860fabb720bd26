import { guardFor, PesakitError } from '../../errors/pesakit-error.js';

/** A fenced write was refused: the lease expired and another worker took it. Nothing written. */
export class LeaseLostError extends PesakitError {
  override name = 'LeaseLostError' as string;
  override readonly code = 'lease_lost' as const;
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
