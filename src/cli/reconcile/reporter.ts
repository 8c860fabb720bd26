import { withoutPhoneNumbers } from '../../internal/phone-numbers.js';
import type { NotVisibleWarning } from '../../references/account.js';
import type { TransactionRecord } from '../../references/index.js';
import type { ReviewVerdict } from '../../references/review.js';
import {
  asciiTable,
  errorMessage,
  LiveBar,
  printable,
  type ReporterStreams,
  writeJsonLine,
} from '../output.js';
import { type PassCounts, type RunOutcome, recordFields } from './pass-counts.js';

export type { ReporterStreams } from '../output.js';

interface StartInfo {
  mode: 'once' | 'watch';
  environment: string;
  store: string;
  all: boolean;
}

export interface ReconcileReporter {
  started(info: StartInfo): void;
  progress(counts: PassCounts): void;
  settled(record: TransactionRecord): void;
  failed(record: TransactionRecord): void;
  review(record: TransactionRecord, verdict: ReviewVerdict): void;
  notVisible(record: TransactionRecord, warning: NotVisibleWarning): void;
  error(error: unknown, record?: TransactionRecord): void;
  finished(outcome: RunOutcome): void;
}

export function createReporter(json: boolean, streams: ReporterStreams): ReconcileReporter {
  return json ? new JsonReporter(streams.out) : new TextReporter(streams);
}

/** `01J… collection/mno 15000 TZS`: enough to find the record, no personal data. */
export function describe(record: TransactionRecord): string {
  return `${record.merchantReference} ${record.product}/${record.flow} ${record.amount} TZS`;
}

export function summaryTable(outcome: RunOutcome): string {
  const { counts } = outcome;
  // Rare (a pass far slower than its rate, or a long 429 pause; records of another account):
  // a column only when it happened.
  const rare = [
    ['lease expired', counts.leaseExpired],
    ['not visible', counts.notVisible],
  ] as const;
  const shown = rare.filter(([, count]) => count > 0);
  const table = asciiTable(
    [
      ...['checked', 'settled', 'failed', 'still pending', 'needs review', 'errors'],
      ...shown.map(([name]) => name),
    ],
    [
      [
        ...[counts.checked, counts.settled, counts.failed, counts.pending, counts.review],
        ...[counts.errors, ...shown.map(([, count]) => count)],
      ],
    ],
  );
  const seconds = (outcome.durationMs / 1000).toFixed(1);
  const review =
    outcome.needsReview === null
      ? 'Could not count the records in needs_review (see the error above).'
      : outcome.needsReview === 0
        ? 'Nothing waits for review.'
        : `${outcome.needsReview} record${outcome.needsReview === 1 ? '' : 's'} in needs_review: ` +
          'see `pesakit review list`, decide with `pesakit review resolve`.';
  const waiting = Object.entries(outcome.unhandledEffects)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
  const effects = waiting
    ? `\nEffects due for your handlers (onPaid, onSent, …), which run in your receiver or reconciler, not here: ${waiting}.`
    : '';
  const notVisible =
    counts.notVisible > 0
      ? `\n${counts.notVisible} record${counts.notVisible === 1 ? ' was' : 's were'} made with ` +
        'another account or environment than this job’s credentials and --environment: not ' +
        'pulled, left open. Reconcile them with the credentials they were made with.'
      : '';
  return `${table}\n${seconds} s. ${review}${notVisible}${effects}\n`;
}

class TextReporter implements ReconcileReporter {
  readonly #out: NodeJS.WritableStream;
  readonly #bar: LiveBar | undefined;
  #lastProgressAt = Date.now();

  constructor(streams: ReporterStreams) {
    this.#out = streams.out;
    this.#bar =
      streams.err.isTTY === true
        ? new LiveBar(
            streams.err,
            'reconcile [{bar}] {value} checked | {settled} settled | {failed} failed | ' +
              '{review} review | {errors} errors',
          )
        : undefined;
  }

  #line(text: string): void {
    if (this.#bar) this.#bar.log(text);
    else this.#out.write(`${printable(text)}\n`);
  }

  started(info: StartInfo): void {
    const scope = info.all ? 'every open record' : 'records due';
    this.#line(`reconcile ${info.mode}: ${scope} in ${info.store} against ${info.environment}`);
    this.#bar?.update(0, 1, { settled: 0, failed: 0, review: 0, errors: 0 });
  }

  progress(counts: PassCounts): void {
    if (this.#bar) {
      // A pass does not know its size in advance: the total grows ahead of the count.
      const total = Math.max(this.#bar.total, Math.ceil((counts.checked + 1) * 1.25));
      this.#bar.update(counts.checked, total, { ...counts });
      return;
    }
    const now = Date.now();
    if (now - this.#lastProgressAt < 5000) return;
    this.#lastProgressAt = now;
    this.#line(
      `progress  ${counts.checked} checked, ${counts.settled} settled, ${counts.failed} failed, ` +
        `${counts.review} to review, ${counts.errors} errors` +
        (counts.leaseExpired > 0 ? `, ${counts.leaseExpired} lease expired` : '') +
        (counts.notVisible > 0 ? `, ${counts.notVisible} not visible` : ''),
    );
  }

  settled(record: TransactionRecord): void {
    if (!this.#bar) this.#line(`settled   ${describe(record)}`);
  }

  failed(record: TransactionRecord): void {
    const reason = record.statusReason ? `: ${withoutPhoneNumbers(record.statusReason)}` : '';
    if (!this.#bar) this.#line(`failed    ${describe(record)}${reason}`);
  }

  review(record: TransactionRecord, verdict: ReviewVerdict): void {
    this.#line(
      `review    ${describe(record)}: ${verdict.reason}: ${withoutPhoneNumbers(verdict.message)}`,
    );
  }

  notVisible(record: TransactionRecord, warning: NotVisibleWarning): void {
    this.#line(`not visible ${describe(record)}: ${warning.message}`);
  }

  error(error: unknown, record?: TransactionRecord): void {
    this.#line(`error     ${record ? `${describe(record)}: ` : ''}${errorMessage(error)}`);
  }

  finished(outcome: RunOutcome): void {
    const { checked } = outcome.counts;
    this.#bar?.update(checked, Math.max(checked, 1), { ...outcome.counts });
    this.#bar?.stop();
    this.#out.write(summaryTable(outcome));
  }
}

class JsonReporter implements ReconcileReporter {
  readonly #out: NodeJS.WritableStream;
  // A pass may emit progress per record; a log pipeline wants a heartbeat, not a flood.
  #lastProgressAt = 0;

  constructor(out: NodeJS.WritableStream) {
    this.#out = out;
  }

  started(info: StartInfo): void {
    writeJsonLine(this.#out, 'start', { ...info });
  }

  progress(counts: PassCounts): void {
    const now = Date.now();
    if (now - this.#lastProgressAt < 1000) return;
    this.#lastProgressAt = now;
    writeJsonLine(this.#out, 'progress', { ...counts });
  }

  settled(record: TransactionRecord): void {
    writeJsonLine(this.#out, 'settled', recordFields(record));
  }

  failed(record: TransactionRecord): void {
    const reason = record.statusReason && withoutPhoneNumbers(record.statusReason);
    writeJsonLine(this.#out, 'failed', { ...recordFields(record), reason });
  }

  review(record: TransactionRecord, verdict: ReviewVerdict): void {
    const message = withoutPhoneNumbers(verdict.message);
    writeJsonLine(this.#out, 'review', {
      ...recordFields(record),
      reason: verdict.reason,
      message,
    });
  }

  notVisible(record: TransactionRecord, warning: NotVisibleWarning): void {
    const { recordAccount, clientAccount, message } = warning;
    writeJsonLine(this.#out, 'not_visible', {
      ...recordFields(record),
      recordAccount,
      clientAccount,
      message,
    });
  }

  error(error: unknown, record?: TransactionRecord): void {
    writeJsonLine(this.#out, 'error', {
      ...(record ? { merchantReference: record.merchantReference } : {}),
      error: errorMessage(error),
    });
  }

  finished(outcome: RunOutcome): void {
    const { counts, durationMs, needsReview, unhandledEffects, exitCode } = outcome;
    writeJsonLine(this.#out, 'summary', {
      ...counts,
      durationMs,
      needsReview,
      unhandledEffects,
      exitCode,
    });
  }
}
