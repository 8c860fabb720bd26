import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runNode } from '../helpers/run-node.js';

// Performance is measured in bench/, never asserted in tests. This proves that every benchmark
// still runs end to end against the built package (dist/), in its --quick size, and that the
// table bench/run.mjs prints holds one row per figure docs/benchmarks.md reports.
const benchDir = new URL('../../bench/', import.meta.url);
const doc = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');

/** The first cell of each row of a Markdown table with `header` as its first column. */
function firstCells(text: string, header: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${header} |`));
  if (start < 0) return [];
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split(' | ')[0]?.slice(2) ?? '');
  }
  return rows;
}

/** A benchmark's name without the sizes that differ between --quick and a full run. */
const shape = (name: string) => name.replace(/[\d,]+/g, 'N');

describe('bench/', () => {
  it('holds at most 8 scripts and 1,500 lines, helpers included', () => {
    const scripts = readdirSync(benchDir).filter((name) => name.endsWith('.mjs'));
    expect(scripts.length).toBeLessThanOrEqual(8);
    const lines = readdirSync(benchDir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.mjs'))
      .map((name) => readFileSync(new URL(name, benchDir), 'utf8').split('\n').length - 1)
      .reduce((sum, count) => sum + count, 0);
    expect(lines).toBeLessThanOrEqual(1500);
  });

  it('npm run bench --quick prints one table whose rows are the rows of docs/benchmarks.md', async () => {
    const run = await runNode(['bench/run.mjs', '--quick']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = firstCells(run.stdout, 'benchmark');
    const documented = firstCells(doc, 'benchmark');
    expect(printed.length).toBeGreaterThanOrEqual(8);
    expect(printed.map(shape)).toEqual(documented.map(shape));
    for (const line of run.stdout
      .split('\n')
      .filter((row) => row.startsWith('| ') && !row.startsWith('| benchmark'))) {
      // figure, baseline, a ratio, a floor, and a verdict wherever there is a floor
      expect(line).toMatch(/^\| .+ \| .+ \| .+ \| \d+\.\d\d× \| .+ \| (yes|no|—) \|$/);
    }
  }, 600_000);
});
