import { type Command, InvalidArgumentError, Option } from 'commander';
import { type ReconcileFlags, runReconcile } from '../reconcile/run-reconcile.js';
import { stopSignal } from '../reconcile/stop-signal.js';
import { exitTwoOnParseErrors, refuseSecretFlags } from '../reconcile/usage-error.js';

function positiveInteger(value: string): number {
  const parsed = Number(value);
  // The reconciler's own bound (createReconciler refuses more than 256): checked here, so
  // that a value it would refuse is a usage error (exit 2), not a failed run (exit 1).
  if (!/^\d+$/.test(value) || parsed < 1 || parsed > 256) {
    throw new InvalidArgumentError('--concurrency must be a whole number from 1 to 256.');
  }
  return parsed;
}

/**
 * `pesakit reconcile`: pulls the platform's state for every open record that is due and moves
 * it to its final state (or to needs_review). For cron (`--once`, the default) and for a
 * long-running worker (`--watch`). Credentials come from the environment only; exit codes:
 * 0 nothing needs review, 3 something does, 1 the run failed, 2 usage error.
 */
export function registerReconcileCommand(program: Command): void {
  const command = program
    .command('reconcile')
    .description(
      'Pull the platform state of every due pending/unknown record and settle it. Exit codes: ' +
        '0 nothing needs review, 3 something needs review, 1 the run failed, 2 usage error.',
    )
    .option('--once', 'one pass over what is due, then exit (the default)')
    .option('--watch', 'keep running passes until SIGINT or SIGTERM')
    .addOption(
      new Option('--store <store>', 'SQLite file or postgres:// URL of the reference store').env(
        'PESAKIT_STORE',
      ),
    )
    .addOption(
      new Option('-e, --environment <environment>', 'which platform to pull from')
        .choices(['sandbox', 'production'])
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--schema <name>', 'PostgreSQL schema of the store (default public)').env(
        'PESAKIT_STORE_SCHEMA',
      ),
    )
    .option('--base-url <url>', 'the sandbox origin (default: $PESAKIT_BASE_URL)')
    .option('--concurrency <n>', 'status pulls in flight (default 8)', positiveInteger)
    .option('--all', 'check every open record now, not only those due (with --once)')
    .option('--json', 'JSON lines on stdout, for log pipelines');
  refuseSecretFlags(command);
  exitTwoOnParseErrors(command);
  command.action(async (options: Record<string, unknown>) => {
    const code = await runReconcile(
      {
        ...(options as Omit<ReconcileFlags, 'storeFromArgv'>),
        storeFromArgv: command.getOptionValueSource('store') !== 'env',
      },
      {
        env: process.env,
        out: process.stdout,
        err: process.stderr,
        stopRequested: stopSignal(),
      },
    );
    process.exitCode = code;
    // Whatever a library leaves open (a keep-alive socket, a timer), a cron job must end.
    setTimeout(() => process.exit(code), 2000).unref();
  });
}
