import type { TransactionRecord } from '../../references/index.js';
import type { PassCounts, RunOutcome, VerdictView } from './pass-counts.js';
import { recordFields } from './pass-counts.js';
import { withoutPhoneNumbers } from './phone-numbers.js';
import type { ReconcileReporter } from './reporter.js';
import { errorMessage } from './reporter.js';

/**
 * One JSON object per line, each with `event` and `at`, for log pipelines (jq, Loki, Datadog).
 * The last line is always `{"event":"summary", …, "exitCode": n}`.
 */
export class JsonLinesReporter implements ReconcileReporter {
  readonly #out: NodeJS.WritableStream;
  // A pass may emit progress per record; a log pipeline wants a heartbeat, not a flood.
  #lastProgressAt = 0;

  constructor(out: NodeJS.WritableStream) {
    this.#out = out;
  }

  #line(event: string, fields: Record<string, unknown>): void {
    this.#out.write(`${JSON.stringify({ event, at: new Date().toISOString(), ...fields })}\n`);
  }

  started(info: { mode: string; environment: string; store: string; all: boolean }): void {
    this.#line('start', info);
  }

  progress(counts: PassCounts): void {
    const now = Date.now();
    if (now - this.#lastProgressAt < 1000) return;
    this.#lastProgressAt = now;
    this.#line('progress', { ...counts });
  }

  settled(record: TransactionRecord): void {
    this.#line('settled', recordFields(record));
  }

  failed(record: TransactionRecord): void {
    this.#line('failed', {
      ...recordFields(record),
      reason: record.statusReason ? withoutPhoneNumbers(record.statusReason) : record.statusReason,
    });
  }

  review(record: TransactionRecord, verdict: VerdictView): void {
    this.#line('review', {
      ...recordFields(record),
      reason: verdict.reason,
      message: withoutPhoneNumbers(verdict.message),
    });
  }

  error(error: unknown, record?: TransactionRecord): void {
    this.#line('error', {
      ...(record ? { merchantReference: record.merchantReference } : {}),
      error: errorMessage(error),
    });
  }

  finished(outcome: RunOutcome): void {
    this.#line('summary', {
      ...outcome.counts,
      durationMs: outcome.durationMs,
      needsReview: outcome.needsReview,
      exitCode: outcome.exitCode,
    });
  }
}
