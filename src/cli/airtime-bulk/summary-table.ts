import Table from 'cli-table3';
import type { AirtimeBulkResult } from '../../resources/airtime-bulk/types.js';
import { asciiBorders } from '../reconcile/summary-table.js';
import { bulkExitCodes } from './exit-codes.js';

/** The table printed when a batch ends, and what to do next. */
export function bulkSummaryTable(
  result: AirtimeBulkResult,
  exitCode: number,
  out: string | undefined,
): string {
  const { totals } = result;
  const table = new Table({
    head: ['rows', 'succeeded', 'failed', 'unknown', 'skipped', 'sent now', 'TZS sent'],
    style: { head: [], border: [] },
    chars: asciiBorders,
  });
  table.push([
    totals.rows,
    totals.succeeded,
    totals.failed,
    totals.unknown,
    totals.skipped,
    totals.sent,
    totals.amountSucceeded,
  ]);
  const next =
    exitCode === bulkExitCodes.ok
      ? 'Every row succeeded.'
      : exitCode === bulkExitCodes.rowsFailed
        ? 'Some rows failed (nothing was debited for them): send them again in a new batch.'
        : `Some rows are open. Skipped rows: run the same command with --batch-id ${result.batchId}. ` +
          'Unknown rows may have been paid and are never resent: `pesakit reconcile`, then ' +
          '`pesakit review`.';
  return (
    `${table.toString()}\nbatch ${result.batchId}. ${next}` +
    `${out !== undefined ? ` Results: ${out}.` : ''}\n`
  );
}
