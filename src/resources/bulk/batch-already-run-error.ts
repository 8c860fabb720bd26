import { guardFor, PesakitError } from '../../errors/pesakit-error.js';
import { instantText } from './row-outcome.js';
import type { BulkResult } from './types.js';

/**
 * The store already holds a run of these rows under this batch id and there is nothing this run
 * may send: every row has a record, or (an id derived from the rows) the run started more than
 * 24 hours ago. Nothing was stored or sent. `result` reports every row as the store holds it;
 * paying the same rows again takes a new batch id.
 */
export class BatchAlreadyRunError extends PesakitError {
  override name = 'BatchAlreadyRunError' as string;
  override readonly code = 'batch_already_run' as const;
  readonly batchId: string;
  /** When the batch's first row was stored: the earliest `createdAt` of its records. */
  readonly ranAt: Date;
  /**
   * The batch as the store holds it, nothing sent now: rows with a record as that run left them
   * (`fromEarlierRun: true`), any other `skipped`.
   */
  readonly result: BulkResult;

  constructor(result: BulkResult, ranAt: Date, derived: boolean) {
    const { batchId } = result;
    const left = result.totals.skipped;
    const ran = derived
      ? `These rows already ran as batch ${batchId}, started ${instantText(ranAt)}`
      : `Batch ${batchId} already ran, started ${instantText(ranAt)}`;
    super(
      left === 0
        ? `${ran}: every row has a record, so nothing was sent. Each row is reported as that ` +
            "run left it. To pay the same rows again (next month's run), give a new batch id."
        : `${ran}, more than 24 hours ago: nothing was sent. A batch id derived from the rows ` +
            `resumes a run of the last 24 hours only. To send the ${left} row${left === 1 ? '' : 's'} ` +
            `it did not, give its id, ${batchId}, as the batch id; to pay every row again ` +
            "(next month's run), give a new batch id.",
    );
    this.batchId = batchId;
    this.ranAt = ranAt;
    this.result = result;
  }
}

export const isBatchAlreadyRunError = guardFor(BatchAlreadyRunError, 'BatchAlreadyRunError');
