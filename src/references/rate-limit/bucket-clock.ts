/**
 * The clock of a store's buckets when the store was given none: the process's monotonic clock,
 * anchored at the wall-clock time the process started. A bucket measures time passing, and a
 * `Date` that is stepped back (NTP) or stopped (a test's fake clock) would stop it refilling, and
 * every request with it. A store given a clock (`open({ now })`) keeps its buckets by that one.
 */
export function bucketClock(): Date {
  return new Date(performance.timeOrigin + performance.now());
}
