import type { TransactionRecord } from '../../references/index.js';
import type { PassCounts, RunOutcome, VerdictView } from './pass-counts.js';
import { withoutPhoneNumbers } from './phone-numbers.js';
import type { ReconcileReporter } from './reporter.js';
import { errorMessage } from './reporter.js';
import { summaryTable } from './summary-table.js';

/**
 * For cron mail and log files: one line per record that moved (or could not be checked), a
 * progress line every few seconds, and the summary table at the end.
 */
export class PlainLinesReporter implements ReconcileReporter {
  readonly #out: NodeJS.WritableStream;
  #lastProgressAt = Date.now();

  constructor(out: NodeJS.WritableStream) {
    this.#out = out;
  }

  #line(text: string): void {
    this.#out.write(`${text}\n`);
  }

  started(info: { mode: string; environment: string; store: string; all: boolean }): void {
    const scope = info.all ? 'every open record' : 'records due';
    this.#line(`reconcile ${info.mode}: ${scope} in ${info.store} against ${info.environment}`);
  }

  progress(counts: PassCounts): void {
    const now = Date.now();
    if (now - this.#lastProgressAt < 5000) return;
    this.#lastProgressAt = now;
    this.#line(
      `progress  ${counts.checked} checked, ${counts.settled} settled, ${counts.failed} failed, ` +
        `${counts.review} to review, ${counts.errors} errors` +
        (counts.leaseExpired > 0 ? `, ${counts.leaseExpired} lease expired` : ''),
    );
  }

  settled(record: TransactionRecord): void {
    this.#line(`settled   ${describe(record)}`);
  }

  failed(record: TransactionRecord): void {
    this.#line(
      `failed    ${describe(record)}${record.statusReason ? `: ${withoutPhoneNumbers(record.statusReason)}` : ''}`,
    );
  }

  review(record: TransactionRecord, verdict: VerdictView): void {
    this.#line(
      `review    ${describe(record)}: ${verdict.reason}: ${withoutPhoneNumbers(verdict.message)}`,
    );
  }

  error(error: unknown, record?: TransactionRecord): void {
    this.#line(`error     ${record ? `${describe(record)}: ` : ''}${errorMessage(error)}`);
  }

  finished(outcome: RunOutcome): void {
    this.#out.write(summaryTable(outcome));
  }
}

/** `01J… collection/mno 15000 TZS`: enough to find the record, no personal data. */
export function describe(record: TransactionRecord): string {
  return `${record.merchantReference} ${record.product}/${record.flow} ${record.amount} TZS`;
}
