import { guardFor, PesakitError } from '../../errors/pesakit-error.js';

/** A stored row whose intent differs from the row now given under the same merchant reference. */
export interface BatchRowMismatch {
  row: number;
  merchantReference: string;
  stored: { msisdn: string | null; amount: number; reference?: string };
  given: { msisdn: string; amount: number; reference?: string };
}

/**
 * A batch id was run again with different rows: resuming would pay people not in the file, so
 * nothing was sent. Use a new batch id for a new file; resume with the very file it started with.
 */
export class BatchMismatchError extends PesakitError {
  override name = 'BatchMismatchError' as string;
  override readonly code = 'batch_mismatch' as const;
  readonly batchId: string;
  readonly mismatches: readonly BatchRowMismatch[];

  constructor(batchId: string, mismatches: readonly BatchRowMismatch[], extraStoredRow?: number) {
    const first = mismatches[0];
    super(
      `Batch ${batchId} was started with other rows: ${
        first
          ? `row ${first.row} is stored as ${first.stored.msisdn} / ${first.stored.amount} TZS but ` +
            `the file has ${first.given.msisdn} / ${first.given.amount} TZS` +
            (mismatches.length > 1 ? ` (and ${mismatches.length - 1} more rows differ)` : '')
          : `the store holds row ${extraStoredRow} but the file has fewer rows`
      }. Nothing was sent. Resume a batch with the file it started with, or give a new batch id ` +
        'for a new file.',
    );
    this.batchId = batchId;
    this.mismatches = mismatches;
  }
}

export const isBatchMismatchError = guardFor(BatchMismatchError, 'BatchMismatchError');
