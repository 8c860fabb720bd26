/**
 * `toISOString()` of a clock, remembered for the millisecond it names. A payout stamps three
 * records (the payout twice, its SMS, its two ledger entries) within the same millisecond, and
 * under load a few hundred requests share one; formatting the date again each time showed in
 * the profile of every initiation and payout (docs/benchmarks.md, stop 14). Keyed by the
 * clock's own time, so a test clock that moves back or jumps is read afresh every time it
 * changes.
 */
export function isoClock(now: () => Date): () => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return () => {
    const date = now();
    const ms = date.getTime();
    if (ms !== lastMs) {
      // toISOString throws a RangeError for an invalid date, as it did before this cache.
      lastIso = date.toISOString();
      lastMs = ms;
    }
    return lastIso;
  };
}
