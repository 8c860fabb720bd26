// The run's report: the seed, what was paid, the faults by kind, the durations, every check with
// every violation and the references involved. The last line is `SOAK {json}` for scripts.
import { cpus } from 'node:os';
import { formatVerifyReport } from 'pesakit/testing';
import type { SoakChecks } from './checks.js';
import type { Drained } from './drain.js';
import type { DriveResult } from './driver.js';
import type { SoakOptions } from './options.js';

export interface SoakSummary {
  options: SoakOptions;
  singles: number;
  bulkRows: number;
  bulk: Record<string, string>;
  drive: DriveResult;
  sandboxFaults: Record<string, number>;
  processFaults: Record<string, number>;
  driveMs: number;
  drained: Drained;
  totalMs: number;
  checks: SoakChecks;
  directory: string;
}

const list = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([key, n]) => `${key} ${n}`)
    .join(', ');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'} ×${cpu.length}, Node ${process.version}, ${process.platform} ${process.arch}`;
}

export function reportLines(summary: SoakSummary): string[] {
  const { options, checks } = summary;
  const violations = countViolations(checks);
  const lines = [
    `soak seed ${options.seed} · ${options.store} · ${options.payments} payments (${summary.singles} single, 3 bulk files of ${summary.bulkRows} rows) · chaos rate ${options.rate}`,
    `machine: ${machine()}`,
    `duration: ${seconds(summary.totalMs)} (driving ${seconds(summary.driveMs)}, drain ${seconds(summary.drained.ms)}${summary.drained.converged ? '' : ', did not converge'})`,
    `payments: ${list(summary.drive.kinds)}`,
    `calls: ${list(summary.drive.outcomes)}`,
    `bulk files: ${Object.entries(summary.bulk)
      .map(([kind, how]) => `${kind} ${how}`)
      .join(', ')}`,
    `faults in the sandbox: ${list(summary.sandboxFaults)}`,
    `faults outside it: ${list(summary.processFaults)}`,
    `forged callbacks: ${list(summary.drive.forgeries)}`,
    ...formatVerifyReport(checks.verify, 1000),
  ];
  for (const check of checks.own) {
    lines.push(
      `${check.violations.length === 0 ? 'ok  ' : 'FAIL'} ${check.title}: ${check.summary}`,
    );
    for (const violation of check.violations) {
      lines.push(`       ${violation.reference}: ${violation.message}`);
    }
  }
  lines.push(
    checks.ok
      ? `SOAK PASSED: seed ${options.seed}, 0 violations`
      : `SOAK FAILED: seed ${options.seed}, ${violations} violations (replay: npm run soak -- --seed ${options.seed} --payments ${options.payments} --store ${options.store}; the run's files are in ${summary.directory})`,
  );
  lines.push(
    `SOAK ${JSON.stringify({
      seed: options.seed,
      store: options.store,
      payments: options.payments,
      ok: checks.ok,
      violations,
      durationMs: summary.totalMs,
      drainMs: summary.drained.ms,
      sandboxFaults: summary.sandboxFaults,
      processFaults: summary.processFaults,
      forgeries: summary.drive.forgeries,
      calls: summary.drive.outcomes,
    })}`,
  );
  return lines;
}

function countViolations(checks: SoakChecks): number {
  return (
    checks.verify.checks.reduce((sum, check) => sum + check.violations.length, 0) +
    checks.own.reduce((sum, check) => sum + check.violations.length, 0)
  );
}
