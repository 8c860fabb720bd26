import { existsSync } from 'node:fs';
import { Pesakit } from '../../client.js';
import type { Environment } from '../../core/endpoints.js';
import { isInsufficientFundsError } from '../../errors/insufficient-funds-error.js';
import { isRequestValidationError } from '../../errors/request-validation-error.js';
import type { ReferenceStore } from '../../references/index.js';
import { batchIdFor } from '../../resources/bulk/batch-id.js';
import { isBatchMismatchError } from '../../resources/bulk/batch-mismatch-error.js';
import { isBulkValidationError } from '../../resources/bulk/bulk-validation-error.js';
import { loadRows } from '../../resources/bulk/load-rows.js';
import { newMerchantReference } from '../../resources/merchant-reference.js';
import { isSpreadsheetError } from '../../spreadsheets/index.js';
import { bulkExitCodes, exitCodeOf } from '../exit-codes.js';
import { errorMessage, type ReporterStreams } from '../output.js';
import { checkedClientOptions } from '../reconcile/client-from-env.js';
import { describeStore, openStore } from '../reconcile/open-store.js';
import { checkNoSecretFlags, UsageError } from '../reconcile/usage-error.js';
import { bulkStoreLocation } from './open-bulk-store.js';
import { createBulkReporter } from './reporter.js';
import { checkResultsFile, writeResultsFile } from './results-file.js';

export interface AirtimeBulkFlags {
  batchId?: string;
  concurrency?: number;
  out?: string;
  store?: string;
  storeFromArgv: boolean;
  environment: Environment;
  baseUrl?: string;
  json?: boolean;
}

export interface AirtimeBulkIo extends ReporterStreams {
  env: Readonly<Record<string, string | undefined>>;
  /** Resolves on SIGINT/SIGTERM: rows not yet sent are skipped, rows in flight finish. */
  stopRequested: Promise<void>;
}

/** `pesakit airtime bulk <file>`: usage checked before the store opens; returns an exit code. */
export async function runAirtimeBulk(
  file: string,
  flags: AirtimeBulkFlags,
  io: AirtimeBulkIo,
): Promise<number> {
  let store: ReferenceStore | undefined;
  const reporter = createBulkReporter(flags.json === true, io);
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
        batchIdFor(flags.batchId);
      } catch {
        throw new UsageError(
          `--batch-id ${flags.batchId}: use 1–58 letters, digits, or _ - . (no colon).`,
        );
      }
    }
    // The file is read and checked before the resume advice: a refused file has no batch.
    await loadRows(file, undefined);
    const resuming = flags.batchId !== undefined;
    const location = bulkStoreLocation(flags.store, flags.storeFromArgv, resuming);
    const clientOptions = checkedClientOptions(io.env, flags);
    if (clientOptions.credentials.airtime === undefined) {
      throw new UsageError(
        'Airtime credentials are not set: set PESAKIT_AIRTIME_EMAIL and PESAKIT_AIRTIME_PASSWORD.',
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
    // Generated here rather than by the SDK, so it is printed before the first row is sent.
    const batchId = flags.batchId ?? newMerchantReference();
    const abort = new AbortController();
    void io.stopRequested.then(() => abort.abort());
    const batch = pesakit.airtime.bulkPurchase(file, {
      batchId,
      signal: abort.signal,
      ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    });
    batch.on('row', (row) => reporter.row(row));
    batch.on('progress', (totals) => reporter.progress(totals));
    reporter.started({
      batchId,
      file,
      store: describeStore(location),
      environment: flags.environment,
      resumed: resuming,
    });
    const result = await batch;
    const exitCode = exitCodeOf(result.totals);
    if (flags.out !== undefined) await writeResultsFile(flags.out, result);
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
