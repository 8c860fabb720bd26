import { Pesakit } from '../../client.js';
import type { Environment } from '../../core/endpoints.js';
import { isConfigurationError } from '../../errors/index.js';
import type { ReferenceStore } from '../../references/index.js';
import { exitCodes } from '../exit-codes.js';
import { clientOptionsFromEnv } from './client-from-env.js';
import { countNeedsReview } from './count-review.js';
import { describeStore, openStore, parseStoreLocation } from './open-store.js';
import { type PassCounts, PassTotals } from './pass-counts.js';
import { createReporter, errorMessage, type ReporterStreams } from './reporter.js';
import { checkNoSecretFlags, UsageError } from './usage-error.js';

/** The flags of `pesakit reconcile`, as commander parses them. */
export interface ReconcileFlags {
  once?: boolean;
  watch?: boolean;
  store?: string;
  /** A PostgreSQL store's schema (`--schema`, `PESAKIT_STORE_SCHEMA`). @default 'public' */
  schema?: string;
  /** False when `store` came from `PESAKIT_STORE` rather than argv. */
  storeFromArgv: boolean;
  environment: Environment;
  baseUrl?: string;
  concurrency?: number;
  all?: boolean;
  json?: boolean;
}

/** What the command needs from the process, so tests can run it in-process. */
export interface ReconcileIo extends ReporterStreams {
  env: Readonly<Record<string, string | undefined>>;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopRequested: Promise<void>;
}

/**
 * `pesakit reconcile`: one pass (`--once`, the default) or passes until a signal (`--watch`),
 * then the summary, then an exit code (see exit-codes.ts). Usage problems are found before the
 * store is opened, so a wrong command line changes nothing.
 */
export async function runReconcile(flags: ReconcileFlags, io: ReconcileIo): Promise<number> {
  let store: ReferenceStore | undefined;
  try {
    checkNoSecretFlags(flags as unknown as Record<string, unknown>);
    if (flags.once === true && flags.watch === true) {
      throw new UsageError('--once and --watch exclude each other: pick one.');
    }
    if (flags.all === true && flags.watch === true) {
      throw new UsageError('--all forces one pass over every open record: use it with --once.');
    }
    if (flags.store === undefined) {
      throw new UsageError(
        'Which store? Pass --store ./payments.sqlite (or a postgres:// URL), or set PESAKIT_STORE.',
      );
    }
    const location = parseStoreLocation(flags.store, flags.storeFromArgv, flags.schema);
    const clientOptions = clientOptionsFromEnv(io.env, {
      environment: flags.environment,
      ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    });
    // The client checks its configuration at construction (a URL that is not one, a product
    // without a host): try it before the store is opened, so such a mistake changes nothing.
    try {
      new Pesakit(clientOptions);
    } catch (error) {
      if (isConfigurationError(error) || error instanceof TypeError) {
        throw new UsageError(error.message);
      }
      throw error;
    }
    const reporter = createReporter(flags.json === true, io);
    const mode = flags.watch === true ? 'watch' : 'once';

    try {
      store = await openStore(location);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      io.err.write(
        `pesakit reconcile: cannot open the store ${describeStore(location)}: ${errorMessage(error)}\n`,
      );
      return exitCodes.runError;
    }
    const pesakit = new Pesakit({ ...clientOptions, store });
    const reconciler = pesakit.createReconciler({
      ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    });
    const startedAt = Date.now();
    const passes = new PassTotals();
    const { totals } = passes;
    reconciler.on('progress', (counts) => {
      passes.add(counts);
      reporter.progress(counts);
    });
    reconciler.on('settled', (record) => reporter.settled(record));
    reconciler.on('failed', (record) => reporter.failed(record));
    reconciler.on('review', (record, verdict) => reporter.review(record, verdict));
    reconciler.on('error', (error, record) => reporter.error(error, record));

    reporter.started({
      mode,
      environment: flags.environment,
      store: describeStore(location),
      all: flags.all === true,
    });
    let counts: PassCounts;
    let runFailed = false;
    if (mode === 'once') {
      const abort = new AbortController();
      void io.stopRequested.then(() => abort.abort());
      try {
        const summary = await reconciler.runOnce({
          force: flags.all === true,
          signal: abort.signal,
        });
        counts = {
          checked: summary.checked,
          settled: summary.settled,
          failed: summary.failed,
          review: summary.review,
          pending: summary.pending,
          errors: summary.errors,
          leaseExpired: summary.leaseExpired,
        };
      } catch (error) {
        runFailed = true;
        reporter.error(error);
        counts = { ...totals };
      } finally {
        await reconciler.close();
      }
    } else {
      reconciler.start();
      await io.stopRequested;
      await reconciler.close();
      counts = { ...totals };
    }
    // A pass in which every check threw (platform unreachable, credentials refused) did no
    // work at all: that is a broken job, not a quiet night.
    if (counts.checked > 0 && counts.errors >= counts.checked) runFailed = true;
    let needsReview: number | null = null;
    try {
      needsReview = await countNeedsReview(store);
    } catch (error) {
      runFailed = true;
      reporter.error(error);
    }
    const exitCode = runFailed
      ? exitCodes.runError
      : needsReview !== null && needsReview > 0
        ? exitCodes.needsReview
        : exitCodes.ok;
    reporter.finished({ counts, durationMs: Date.now() - startedAt, needsReview, exitCode });
    return exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err.write(`pesakit reconcile: ${error.message}\n`);
      return exitCodes.usage;
    }
    io.err.write(`pesakit reconcile: ${errorMessage(error)}\n`);
    return exitCodes.runError;
  } finally {
    await store?.close();
  }
}
