/**
 * The exit codes of `pesakit airtime bulk`, so a script can tell "everyone got airtime" from
 * "some were refused" from "some need a rerun or a person" from "nothing was sent at all".
 */
export const bulkExitCodes = {
  /** Every row succeeded (in this run or an earlier one). */
  ok: 0,
  /** The run could not finish: store unreachable, login refused, an unexpected error. */
  runError: 1,
  /** Bad command line or environment: nothing was read or sent. */
  usage: 2,
  /** Every row has a final outcome and at least one `failed` (the vendor or platform said no). */
  rowsFailed: 3,
  /**
   * At least one row is `unknown` (may have been paid: reconcile, then review) or `skipped`
   * (never sent: run the same command with the same --batch-id again).
   */
  rowsOpen: 4,
  /**
   * The batch was refused before anything was stored or sent: bad rows, an unreadable file, a
   * wallet that does not cover it, or a batch id already used for another file.
   */
  refused: 5,
} as const;

export type BulkExitCode = (typeof bulkExitCodes)[keyof typeof bulkExitCodes];

/** The code for a batch that ran: open rows first (they need action), then failures. */
export function exitCodeOf(totals: { failed: number; unknown: number; skipped: number }) {
  if (totals.unknown > 0 || totals.skipped > 0) return bulkExitCodes.rowsOpen;
  if (totals.failed > 0) return bulkExitCodes.rowsFailed;
  return bulkExitCodes.ok;
}
