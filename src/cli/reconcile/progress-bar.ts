import cliProgress from 'cli-progress';
import type { TransactionRecord } from '../../references/index.js';
import type { PassCounts, RunOutcome, VerdictView } from './pass-counts.js';
import { describe } from './plain-lines.js';
import type { ReconcileReporter, ReporterStreams } from './reporter.js';
import { errorMessage } from './reporter.js';
import { summaryTable } from './summary-table.js';

/**
 * For a person at a terminal: a live bar on stderr with the running counts, records that need
 * attention (review, errors) logged above it, and the summary table on stdout at the end.
 *
 * A pass does not know its size in advance (records are streamed in keyset pages), so the bar's
 * total grows with what has been seen: it shows activity and counts rather than a promise of
 * how much is left.
 */
export class ProgressBarReporter implements ReconcileReporter {
  readonly #streams: ReporterStreams;
  readonly #bar: cliProgress.SingleBar;
  #started = false;

  constructor(streams: ReporterStreams) {
    this.#streams = streams;
    this.#bar = new cliProgress.SingleBar(
      {
        stream: streams.err,
        format:
          'reconcile [{bar}] {value} checked | {settled} settled | {failed} failed | ' +
          '{review} review | {errors} errors',
        hideCursor: true,
        clearOnComplete: true,
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  started(info: { mode: string; environment: string; store: string; all: boolean }): void {
    this.#streams.err.write(
      `reconcile ${info.mode}: ${info.all ? 'every open record' : 'records due'} in ${info.store} against ${info.environment}\n`,
    );
    this.#bar.start(1, 0, { settled: 0, failed: 0, review: 0, errors: 0 });
    this.#started = true;
  }

  progress(counts: PassCounts): void {
    if (!this.#started) return;
    // Grow ahead of the count so the bar moves instead of sitting full.
    const total = Math.max(this.#bar.getTotal(), Math.ceil((counts.checked + 1) * 1.25));
    this.#bar.setTotal(total);
    this.#bar.update(counts.checked, { ...counts });
  }

  settled(_record: TransactionRecord): void {}

  failed(_record: TransactionRecord): void {}

  review(record: TransactionRecord, verdict: VerdictView): void {
    this.#log(`review    ${describe(record)}: ${verdict.reason}: ${verdict.message}`);
  }

  error(error: unknown, record?: TransactionRecord): void {
    this.#log(`error     ${record ? `${describe(record)}: ` : ''}${errorMessage(error)}`);
  }

  finished(outcome: RunOutcome): void {
    if (this.#started) {
      this.#bar.setTotal(Math.max(outcome.counts.checked, 1));
      this.#bar.update(outcome.counts.checked, { ...outcome.counts });
      this.#bar.stop();
    }
    this.#streams.out.write(summaryTable(outcome));
  }

  /** Writes a line above the bar (cli-progress redraws it on the next tick). */
  #log(text: string): void {
    if (this.#started) this.#streams.err.write('\r\u001b[K');
    this.#streams.err.write(`${text}\n`);
  }
}
