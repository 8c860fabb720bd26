import type { TransactionRecord } from '../../references/index.js';
import { BatchAlreadyRunError } from './batch-already-run-error.js';
import { rowReference } from './batch-id.js';
import type { BulkProduct, BulkRow } from './bulk-product.js';
import { type EarlierRows, earlierRowResult } from './earlier-run.js';
import { instantText, rowFields } from './row-outcome.js';
import { BulkTally } from './totals.js';

/** How long a batch id derived from the rows resumes the run it names: a day. */
export const DERIVED_BATCH_RESUME_MS = 24 * 60 * 60 * 1000;

export interface RepeatRunInput {
  product: BulkProduct;
  batchId: string;
  /** The id was derived from the rows, not given. */
  derived: boolean;
  rows: readonly BulkRow[];
  earlier: EarlierRows;
  now: Date;
}

/**
 * Refuses, before anything is sent, a run that repeats one the store holds: every row already
 * has a record (nothing to send, whatever the id), or the id was derived from the rows and their
 * run started more than a day ago — the same rows a day later are the next run (next month's
 * salaries), which takes a batch id of its own, never a resume by accident.
 */
export function refuseRepeatRun(input: RepeatRunInput): void {
  const { product, batchId, rows, earlier } = input;
  const ranAt = earliest([...earlier.values()]);
  if (ranAt === undefined) return;
  const complete = earlier.size === rows.length;
  const stale = input.derived && input.now.getTime() - ranAt.getTime() > DERIVED_BATCH_RESUME_MS;
  if (!complete && !stale) return;

  const tally = new BulkTally(rows.map((row) => row.amount));
  const outcomes = rows.map((row) => {
    const record = earlier.get(row.row);
    const outcome = record
      ? earlierRowResult(product, batchId, row, record)
      : {
          ...rowFields(row, rowReference(product.prefix, batchId, row.row)),
          status: 'skipped' as const,
          message:
            `Not sent: batch ${batchId} started ${instantText(ranAt)}, more than 24 hours ago. ` +
            'Give its id as the batch id to send this row in it.',
        };
    tally.add(outcome);
    return outcome;
  });
  throw new BatchAlreadyRunError(
    { batchId, rows: outcomes, totals: tally.totals() },
    ranAt,
    input.derived,
  );
}

function earliest(records: readonly TransactionRecord[]): Date | undefined {
  let first: Date | undefined;
  for (const { createdAt } of records) {
    if (first === undefined || createdAt < first) first = createdAt;
  }
  return first;
}
