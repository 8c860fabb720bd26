import type { TransactionRecord } from '../../references/index.js';
import { JsonLinesReporter } from './json-lines.js';
import type { PassCounts, RunOutcome, VerdictView } from './pass-counts.js';
import { withoutPhoneNumbers } from './phone-numbers.js';
import { PlainLinesReporter } from './plain-lines.js';
import { ProgressBarReporter } from './progress-bar.js';
import { UsageError } from './usage-error.js';

/** Where `pesakit reconcile` tells what happens, in one of three forms. */
export interface ReconcileReporter {
  started(info: { mode: 'once' | 'watch'; environment: string; store: string; all: boolean }): void;
  progress(counts: PassCounts): void;
  settled(record: TransactionRecord): void;
  failed(record: TransactionRecord): void;
  review(record: TransactionRecord, verdict: VerdictView): void;
  error(error: unknown, record?: TransactionRecord): void;
  finished(outcome: RunOutcome): void;
}

export interface ReporterStreams {
  out: NodeJS.WritableStream & { isTTY?: boolean };
  err: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * `--json`: JSON lines on stdout for log pipelines. Otherwise a progress bar when stderr is a
 * terminal (a person watching), plain lines when it is not (cron mail, a log file); both end
 * with the summary table on stdout.
 */
export function createReporter(json: boolean, streams: ReporterStreams): ReconcileReporter {
  if (json) return new JsonLinesReporter(streams.out);
  if (streams.err.isTTY === true) return new ProgressBarReporter(streams);
  return new PlainLinesReporter(streams.out);
}

/** An error's message, never its stack or payload (which could hold request bodies). */
export function errorMessage(error: unknown): string {
  // A usage error's message is already the whole sentence a person needs; its class name is noise.
  if (error instanceof UsageError) return withoutPhoneNumbers(error.message);
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return withoutPhoneNumbers(text);
}
