// Small helpers shared by the benchmarks. Kept in bench/lib so that bench/run.mjs, which runs
// every bench/*.mjs, does not mistake them for a benchmark.

/** Median, p95 (nearest rank), mean, min and max of a list of numbers. */
export function summarize(samples) {
  if (samples.length === 0) throw new Error('summarize: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const sum = sorted.reduce((total, x) => total + x, 0);
  return {
    count: sorted.length,
    min: sorted[0],
    median: rank(0.5),
    p95: rank(0.95),
    max: sorted[sorted.length - 1],
    mean: sum / sorted.length,
  };
}

/** Milliseconds with a precision that suits their size. */
export function ms(value) {
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(value >= 10 ? 1 : 2)} ms`;
}

/** Microseconds, for per-call latencies well under a millisecond. */
export function us(valueMs) {
  return `${(valueMs * 1000).toFixed(1)} µs`;
}

/** Prints rows (arrays of strings) as a left-aligned plain-text table under a header row. */
export function printTable(header, rows) {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => String(row[i]).length)));
  const line = (row) => row.map((cell, i) => String(cell).padEnd(widths[i])).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}
