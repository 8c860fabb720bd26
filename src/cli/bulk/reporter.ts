import type { BatchAlreadyRunError } from '../../resources/bulk/batch-already-run-error.js';
import type { BulkResult, BulkRowOutcome, BulkTotals } from '../../resources/bulk/types.js';
import { bulkExitCodes } from '../exit-codes.js';
import {
  asciiTable,
  errorMessage,
  LiveBar,
  printable,
  type ReporterStreams,
  writeJsonLine,
} from '../output.js';

export interface BulkStartInfo {
  batchId: string;
  file: string;
  store: string;
  environment: string;
  /** `--batch-id` was given. */
  resumed: boolean;
  /** The batch id was derived from the rows (no `--batch-id`). */
  derived: boolean;
}

export interface BulkReporter {
  started(info: BulkStartInfo): void;
  row(result: BulkRowOutcome): void;
  progress(totals: BulkTotals): void;
  /** The summary; `alreadyRun` when nothing was sent because the batch had run. */
  finished(
    result: BulkResult,
    exitCode: number,
    out: string | undefined,
    alreadyRun?: BatchAlreadyRunError,
  ): void;
  stopped(message: string, exitCode: number, lines: readonly string[]): void;
}

/** Which command reports: its name in messages, and whether its rows can be `pending`. */
export interface ReportedCommand {
  name: string;
  product: 'airtime' | 'disbursement';
}

export function createBulkReporter(
  command: ReportedCommand,
  json: boolean,
  streams: ReporterStreams,
): BulkReporter {
  if (json) return new JsonBulkReporter(streams);
  return new TextBulkReporter(command, streams, streams.err.isTTY === true);
}

function rowLine(result: BulkRowOutcome): string {
  return (
    `row ${result.row} ${result.msisdn} ${result.amount} TZS: ${result.status}` +
    (result.message ? ` (${result.message})` : '')
  );
}

function startLine(name: string, info: BulkStartInfo): string {
  const rerun = info.derived
    ? `the same command within 24 hours (later: with --batch-id ${info.batchId})`
    : 'the same command';
  return (
    `${name} starting batch ${info.batchId}${info.derived ? ' (derived from the rows)' : ''} ` +
    `from ${info.file} (store ${info.store}, ${info.environment}). If it stops, run ${rerun}: ` +
    'rows already sent are never sent again.\n'
  );
}

/**
 * The batch's rows by status, then what this run sent and paid: "sent now" and "TZS paid now"
 * count this run only; a rerun adds the batch's total, labelled as such.
 */
export function bulkSummaryTable(
  result: BulkResult,
  exitCode: number,
  out: string | undefined,
  payouts = false,
  alreadyRun?: BatchAlreadyRunError,
): string {
  const { totals: t } = result;
  const counts = [t.rows, t.succeeded, t.failed, t.pending, t.unknown, t.skipped, t.sent];
  const columns = ['rows', 'succeeded', 'failed', 'pending', 'unknown', 'skipped', 'sent now'];
  // Only payouts can be `pending` (accepted, awaiting the payout history).
  const shown = (_: unknown, index: number) => payouts || index !== 3;
  const rerun = result.rows.some((row) => row.fromEarlierRun);
  const table = asciiTable(
    [...columns.filter(shown), 'TZS paid now', ...(rerun ? ['TZS paid in all'] : [])],
    [[...counts.filter(shown), t.amountSucceededNow, ...(rerun ? [t.amountSucceeded] : [])]],
  );
  const next = alreadyRun
    ? alreadyRunAdvice(alreadyRun)
    : exitCode === bulkExitCodes.ok
      ? 'Every row succeeded.'
      : exitCode === bulkExitCodes.rowsFailed
        ? 'Some rows failed (nothing was debited for them): send them again in a new batch.'
        : `Some rows are open. Skipped rows: run the same command with --batch-id ${result.batchId}` +
          `${result.stoppedFor === 'insufficient_funds' ? ' after topping the wallet up' : ''}. ` +
          'Pending and unknown rows may have been paid and are never resent: `pesakit reconcile` ' +
          '(then `pesakit review` for what it cannot settle).';
  return `${table}\nbatch ${result.batchId}. ${next}${out !== undefined ? ` Results: ${out}.` : ''}\n`;
}

function alreadyRunAdvice(error: BatchAlreadyRunError): string {
  const { batchId, result } = error;
  const open = result.totals.pending + result.totals.unknown;
  return (
    `${error.message} On the command line: ` +
    (result.totals.skipped > 0 ? `--batch-id ${batchId} sends the rows left in it; ` : '') +
    '--batch-id with a new id pays the rows again.' +
    (open > 0
      ? ' Pending and unknown rows may have been paid and are never resent: `pesakit reconcile`.'
      : '')
  );
}

class TextBulkReporter implements BulkReporter {
  readonly #command: ReportedCommand;
  readonly #streams: ReporterStreams;
  readonly #bar: LiveBar | undefined;

  constructor(command: ReportedCommand, streams: ReporterStreams, tty: boolean) {
    this.#command = command;
    this.#streams = streams;
    this.#bar = tty
      ? new LiveBar(
          streams.err,
          `${command.product === 'airtime' ? 'airtime' : 'payouts'} [{bar}] {value}/{total} rows | ` +
            '{succeeded} ok | {failed} failed | {unknown} unknown | {skipped} skipped',
        )
      : undefined;
  }

  started(info: BulkStartInfo): void {
    this.#streams.err.write(printable(startLine(this.#command.name, info)));
  }

  row(result: BulkRowOutcome): void {
    if (result.status === 'success') return;
    if (this.#bar) this.#bar.log(rowLine(result));
    else this.#streams.out.write(`${printable(rowLine(result))}\n`);
  }

  progress(totals: BulkTotals): void {
    this.#bar?.update(totals.done, totals.rows, { ...totals });
  }

  finished(
    result: BulkResult,
    exitCode: number,
    out: string | undefined,
    alreadyRun?: BatchAlreadyRunError,
  ): void {
    this.#bar?.stop();
    const payouts = this.#command.product === 'disbursement';
    this.#streams.out.write(bulkSummaryTable(result, exitCode, out, payouts, alreadyRun));
  }

  stopped(message: string, _exitCode: number, lines: readonly string[]): void {
    this.#bar?.stop();
    this.#streams.err.write(`pesakit ${this.#command.name}: ${message}\n`);
    for (const line of lines) this.#streams.err.write(`  ${printable(line)}\n`);
  }
}

class JsonBulkReporter implements BulkReporter {
  readonly #out: NodeJS.WritableStream;

  constructor(streams: ReporterStreams) {
    this.#out = streams.out;
  }

  started(info: BulkStartInfo): void {
    writeJsonLine(this.#out, 'start', { ...info });
  }

  row(result: BulkRowOutcome): void {
    const { error, ...fields } = result;
    writeJsonLine(this.#out, 'row', {
      ...fields,
      ...(error ? { error: errorMessage(error) } : {}),
    });
  }

  progress(_totals: BulkTotals): void {}

  finished(
    result: BulkResult,
    exitCode: number,
    out: string | undefined,
    alreadyRun?: BatchAlreadyRunError,
  ): void {
    writeJsonLine(this.#out, 'summary', {
      batchId: result.batchId,
      ...result.totals,
      ...(alreadyRun
        ? { alreadyRun: true, ranAt: alreadyRun.ranAt.toISOString(), message: alreadyRun.message }
        : {}),
      ...(out !== undefined ? { out } : {}),
      exitCode,
    });
  }

  stopped(message: string, exitCode: number, lines: readonly string[]): void {
    writeJsonLine(this.#out, 'stopped', { error: message, problems: lines, exitCode });
  }
}
