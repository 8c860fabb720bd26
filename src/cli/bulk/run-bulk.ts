import { existsSync } from 'node:fs';
import { Pesakit } from '../../client.js';
import type { Environment } from '../../core/endpoints.js';
import { isInsufficientFundsError } from '../../errors/insufficient-funds-error.js';
import { isRequestValidationError } from '../../errors/request-validation-error.js';
import type { ReferenceStore } from '../../references/index.js';
import { airtimeBulkRows } from '../../resources/bulk/airtime-bulk.js';
import { isBatchAlreadyRunError } from '../../resources/bulk/batch-already-run-error.js';
import { batchIdRule, checkedBatchId, derivedBatchId } from '../../resources/bulk/batch-id.js';
import { isBatchMismatchError } from '../../resources/bulk/batch-mismatch-error.js';
import type { BulkProduct } from '../../resources/bulk/bulk-product.js';
import type { BulkBatch } from '../../resources/bulk/bulk-run.js';
import { isBulkValidationError } from '../../resources/bulk/bulk-validation-error.js';
import { loadRows } from '../../resources/bulk/load-rows.js';
import { payoutBulkRows } from '../../resources/bulk/payout-bulk.js';
import type { BulkOptions } from '../../resources/bulk/types.js';
import { isSpreadsheetError } from '../../spreadsheets/index.js';
import { bulkExitCodes, exitCodeOf } from '../exit-codes.js';
import { errorMessage, type ReporterStreams } from '../output.js';
import { checkedClientOptions } from '../reconcile/client-from-env.js';
import { describeStore, openStore } from '../reconcile/open-store.js';
import { checkNoSecretFlags, UsageError } from '../reconcile/usage-error.js';
import { bulkStoreLocation } from './open-bulk-store.js';
import { createBulkReporter } from './reporter.js';
import { checkResultsFile, writeResultsFile } from './results-file.js';

export interface BulkFlags {
  batchId?: string;
  concurrency?: number;
  /** Payouts: send the rows the float covers, in order, instead of refusing the batch. */
  partial?: boolean;
  out?: string;
  store?: string;
  storeFromArgv: boolean;
  environment: Environment;
  baseUrl?: string;
  json?: boolean;
}

/** The product a bulk command sends: its rows, its credentials, and the call that starts a batch. */
export interface BulkCommand {
  /** `airtime bulk`, `disbursement bulk`: how messages name the command. */
  name: string;
  product: 'airtime' | 'disbursement';
  rows: BulkProduct;
  start(pesakit: Pesakit, file: string, options: BulkOptions & { partial?: boolean }): BulkBatch;
}

export const airtimeBulkCommand: BulkCommand = {
  name: 'airtime bulk',
  product: 'airtime',
  rows: airtimeBulkRows,
  start: (pesakit, file, options) => pesakit.airtime.bulkPurchase(file, options),
};

export const disbursementBulkCommand: BulkCommand = {
  name: 'disbursement bulk',
  product: 'disbursement',
  rows: payoutBulkRows,
  start: (pesakit, file, options) => pesakit.disbursement.bulkPay(file, options),
};

export interface BulkIo extends ReporterStreams {
  env: Readonly<Record<string, string | undefined>>;
  /** Resolves on SIGINT/SIGTERM: rows not yet sent are skipped, rows in flight finish. */
  stopRequested: Promise<void>;
}

/** `pesakit <product> bulk <file>`: usage checked before the store opens; returns an exit code. */
export async function runBulk(
  command: BulkCommand,
  file: string,
  flags: BulkFlags,
  io: BulkIo,
): Promise<number> {
  let store: ReferenceStore | undefined;
  const reporter = createBulkReporter(command, flags.json === true, io);
  try {
    checkNoSecretFlags(flags as unknown as Record<string, unknown>);
    if (!existsSync(file)) throw new UsageError(`${file}: no such file.`);
    if (flags.out !== undefined) await checkResultsFile(flags.out);
    if (flags.store === undefined) {
      throw new UsageError(
        'Which store keeps the batch? Pass --store ./payments.sqlite (or a postgres:// URL), or ' +
          'set PESAKIT_STORE: a rerun after a crash reads it to send nothing twice.',
      );
    }
    if (flags.batchId !== undefined) {
      try {
        checkedBatchId(flags.batchId, command.rows.operation);
      } catch {
        throw new UsageError(`--batch-id ${flags.batchId}: use ${batchIdRule}.`);
      }
    }
    // The file is read and checked before the resume advice: a refused file has no batch.
    const rows = await loadRows(command.rows, file, undefined);
    const resuming = flags.batchId !== undefined;
    const location = bulkStoreLocation(flags.store, flags.storeFromArgv, resuming);
    const clientOptions = checkedClientOptions(io.env, flags);
    if (clientOptions.credentials[command.product] === undefined) {
      const env = `PESAKIT_${command.product.toUpperCase()}`;
      throw new UsageError(
        `${command.product[0]?.toUpperCase()}${command.product.slice(1)} credentials are not set: set ${env}_EMAIL and ${env}_PASSWORD.`,
      );
    }
    try {
      store = await openStore(location);
    } catch (error) {
      reporter.stopped(errorMessage(error), bulkExitCodes.runError, [
        `cannot open the store ${describeStore(location)}`,
      ]);
      return bulkExitCodes.runError;
    }
    const pesakit = new Pesakit({ ...clientOptions, store });
    // Derived here as the SDK derives it, so it is printed before the first row is sent; left out
    // of the options, so that the SDK applies a derived id's rules (24 hours).
    const batchId = flags.batchId ?? derivedBatchId(command.rows, rows);
    const abort = new AbortController();
    void io.stopRequested.then(() => abort.abort());
    const batch = command.start(pesakit, file, {
      ...(flags.batchId !== undefined ? { batchId: flags.batchId } : {}),
      signal: abort.signal,
      ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
      ...(flags.partial === true ? { partial: true } : {}),
    });
    batch.on('row', (row) => reporter.row(row));
    batch.on('progress', (totals) => reporter.progress(totals));
    reporter.started({
      batchId,
      file,
      store: describeStore(location),
      environment: flags.environment,
      resumed: resuming,
      derived: flags.batchId === undefined,
    });
    const result = await batch.catch(async (error: unknown) => {
      if (!isBatchAlreadyRunError(error)) throw error;
      // Nothing was sent: the rows as the store holds them, the results file, and why.
      for (const row of error.result.rows) reporter.row(row);
      if (flags.out !== undefined) await writeResultsFile(flags.out, error.result, command.product);
      reporter.finished(error.result, bulkExitCodes.alreadyRun, flags.out, error);
      return undefined;
    });
    if (result === undefined) return bulkExitCodes.alreadyRun;
    const exitCode = exitCodeOf(result.totals);
    if (flags.out !== undefined) await writeResultsFile(flags.out, result, command.product);
    reporter.finished(result, exitCode, flags.out);
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      reporter.stopped(errorMessage(error), bulkExitCodes.usage, []);
      return bulkExitCodes.usage;
    }
    const refusal = refusalLines(error);
    if (refusal) {
      const headline = isBulkValidationError(error)
        ? `${refusal.length} row${refusal.length === 1 ? '' : 's'} refused, nothing was stored or sent. Fix them and run the batch again:`
        : errorMessage(error);
      reporter.stopped(headline, bulkExitCodes.refused, refusal);
      return bulkExitCodes.refused;
    }
    reporter.stopped(errorMessage(error), bulkExitCodes.runError, []);
    return bulkExitCodes.runError;
  } finally {
    await store?.close();
  }
}

function refusalLines(error: unknown): string[] | undefined {
  if (isBulkValidationError(error)) return error.problems.map((problem) => problem.message);
  if (isSpreadsheetError(error) || isBatchMismatchError(error)) return [];
  if (isInsufficientFundsError(error) && error.source === 'client') return [];
  if (isRequestValidationError(error)) {
    return Object.entries(error.errors).map(
      ([field, messages]) => `${field}: ${messages.join(' ')}`,
    );
  }
  return undefined;
}
