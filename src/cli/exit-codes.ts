/** Exit codes a scheduler can tell apart: settled, a person must look, the job is broken. */
export const exitCodes = {
  ok: 0,
  /** The pass could not run (store unreachable, every check failed, a store write threw). */
  runError: 1,
  /** Bad command line or environment: nothing was read or written. */
  usage: 2,
  /** The pass ran and at least one record is in `needs_review`: cron should alert. */
  needsReview: 3,
  /**
   * The pass met records made with another account or in another environment (`not_visible`):
   * they were not pulled, so this job's credentials or environment are not the store's.
   */
  notVisible: 4,
} as const;

/** The exit codes of `pesakit airtime|disbursement bulk`: 0, 1 and 2 as above, then what the rows need. */
export const bulkExitCodes = {
  ok: 0,
  runError: 1,
  usage: 2,
  /** Every row has a final outcome and at least one `failed` (the vendor or platform said no). */
  rowsFailed: 3,
  /** A row is `pending`/`unknown` (reconcile, then review) or `skipped` (rerun the batch). */
  rowsOpen: 4,
  /** Refused before anything was stored or sent: bad rows, an unreadable file, a short wallet… */
  refused: 5,
  /**
   * Nothing was sent: the store already holds a run of these rows under the batch id — every row
   * has a record, or (an id derived from the rows) the run started more than 24 hours ago.
   */
  alreadyRun: 6,
} as const;

/** The code for a batch that ran: open rows first (they need action), then failures. */
export function exitCodeOf(totals: {
  failed: number;
  pending: number;
  unknown: number;
  skipped: number;
}) {
  if (totals.pending > 0 || totals.unknown > 0 || totals.skipped > 0) return bulkExitCodes.rowsOpen;
  if (totals.failed > 0) return bulkExitCodes.rowsFailed;
  return bulkExitCodes.ok;
}
