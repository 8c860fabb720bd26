import { Pesakit } from '../../client.js';
import type { Environment } from '../../core/endpoints.js';
import { exitCodes } from '../exit-codes.js';
import { type CliClientOptions, checkedClientOptions } from './client-from-env.js';
import { reviewQueue } from './count-review.js';
import { describeStore, type StoreFlags, withStore } from './open-store.js';
import { type PassCounts, PassTotals, type RunOutcome } from './pass-counts.js';
import { createReporter, type ReporterStreams } from './reporter.js';
import { checkNoSecretFlags, UsageError } from './usage-error.js';

export interface ReconcileFlags extends StoreFlags {
  once?: boolean;
  watch?: boolean;
  environment: Environment;
  baseUrl?: string;
  concurrency?: number;
  all?: boolean;
  json?: boolean;
}

export interface ReconcileIo extends ReporterStreams {
  env: Readonly<Record<string, string | undefined>>;
  stopRequested: Promise<void>;
}

export function runReconcile(flags: ReconcileFlags, io: ReconcileIo): Promise<number> {
  let clientOptions: CliClientOptions | undefined;
  const check = () => {
    checkNoSecretFlags(flags as unknown as Record<string, unknown>);
    if (flags.once === true && flags.watch === true) {
      throw new UsageError('--once and --watch exclude each other: pick one.');
    }
    if (flags.all === true && flags.watch === true) {
      throw new UsageError('--all forces one pass over every open record: use it with --once.');
    }
    clientOptions = checkedClientOptions(io.env, flags);
  };
  return withStore('reconcile', flags, io, check, async (store, location) => {
    const reporter = createReporter(flags.json === true, io);
    const mode = flags.watch === true ? 'watch' : 'once';
    const pesakit = new Pesakit({ ...(clientOptions as CliClientOptions), store });
    const reconciler = pesakit.createReconciler({
      ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
    });
    const startedAt = Date.now();
    const passes = new PassTotals();
    reconciler.on('progress', (counts) => {
      passes.add(counts);
      reporter.progress(counts);
    });
    reconciler.on('settled', (record) => reporter.settled(record));
    reconciler.on('failed', (record) => reporter.failed(record));
    reconciler.on('review', (record, verdict) => reporter.review(record, verdict));
    reconciler.on('warning', (warning, record) => reporter.notVisible(record, warning));
    reconciler.on('error', (error, record) => reporter.error(error, record));
    const all = flags.all === true;
    reporter.started({ mode, environment: flags.environment, store: describeStore(location), all });
    let counts: PassCounts = passes.totals;
    let unhandledEffects: RunOutcome['unhandledEffects'] = {};
    let runFailed = false;
    if (mode === 'once') {
      const abort = new AbortController();
      void io.stopRequested.then(() => abort.abort());
      try {
        const { durationMs: _, ...summary } = await reconciler.runOnce({
          force: all,
          signal: abort.signal,
        });
        ({ unhandledEffects, ...counts } = summary);
      } catch (error) {
        runFailed = true;
        reporter.error(error);
      } finally {
        await reconciler.close();
      }
    } else {
      reconciler.start();
      await io.stopRequested;
      await reconciler.close();
    }
    counts = { ...counts };
    // Every check threw (platform unreachable, credentials refused): a broken job.
    if (counts.checked > 0 && counts.errors >= counts.checked) runFailed = true;
    // Every record in review counts, not only this pass's: cron alerts until a person decides.
    let needsReview: number | null = null;
    try {
      needsReview = (await reviewQueue(store)).length;
    } catch (error) {
      runFailed = true;
      reporter.error(error);
    }
    // Records of another account first: the job itself is set up for the wrong account.
    const exitCode = runFailed
      ? exitCodes.runError
      : counts.notVisible > 0
        ? exitCodes.notVisible
        : needsReview !== null && needsReview > 0
          ? exitCodes.needsReview
          : exitCodes.ok;
    const durationMs = Date.now() - startedAt;
    reporter.finished({ counts, durationMs, needsReview, unhandledEffects, exitCode });
    return exitCode;
  });
}
