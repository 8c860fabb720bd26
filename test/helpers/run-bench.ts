import { type NodeRun, runNode } from './run-node.js';

export type BenchRun = NodeRun;

/**
 * Runs `bench/<file> --quick` against the built package (dist/) in its own process, with this
 * process's environment (so the Node 24 pass's NODE_OPTIONS and better-sqlite3 carry over).
 * Performance is measured in bench/, never asserted in tests: callers only check that the
 * benchmark ran end to end and printed its verdict.
 */
export function runBenchQuick(file: string): Promise<BenchRun> {
  return runNode([`bench/${file}`, '--quick']);
}
