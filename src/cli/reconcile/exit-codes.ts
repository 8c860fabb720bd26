/**
 * The exit codes of `pesakit reconcile` and `pesakit review`, so a scheduler can tell "all
 * settled" from "a person must look" from "the job itself is broken".
 */
export const exitCodes = {
  /** The pass ran and nothing in the store waits for a person. */
  ok: 0,
  /** The pass could not run (store unreachable, every check failed, a store write threw). */
  runError: 1,
  /** Bad command line or environment: nothing was read or written. */
  usage: 2,
  /** The pass ran and at least one record is in `needs_review`: cron should alert. */
  needsReview: 3,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];
