import type { Command } from 'commander';
import { type ReconcileFlags, runReconcile } from '../reconcile/run-reconcile.js';
import { stopSignal } from '../reconcile/stop-signal.js';
import { exitTwoOnParseErrors, refuseSecretFlags } from '../reconcile/usage-error.js';
import {
  environmentOption,
  finish,
  platformEnvironment,
  schemaOption,
  storeFromArgv,
  storeOption,
  wholeNumber,
} from './options.js';

export function registerReconcileCommand(program: Command): void {
  const command = program
    .command('reconcile')
    .description(
      'Pull the platform state of every due pending/unknown record and settle it. Exit codes: ' +
        '0 nothing needs review, 3 something needs review, 4 records of another account or ' +
        'environment were not pulled, 1 the run failed, 2 usage error.',
    )
    .option('--once', 'one pass over what is due, then exit (the default)')
    .option('--watch', 'keep running passes until SIGINT or SIGTERM')
    .addOption(storeOption())
    .addOption(environmentOption('which platform to pull from'))
    .addOption(schemaOption())
    .option('--base-url <url>', 'the sandbox origin (default: $PESAKIT_BASE_URL)')
    // createReconciler's own bound, so that a value it would refuse exits 2, not 1.
    .option(
      '--concurrency <n>',
      'status pulls in flight (default 8)',
      wholeNumber('--concurrency', 256),
    )
    .option('--all', 'check every open record now, not only those due (with --once)')
    .option('--json', 'JSON lines on stdout, for log pipelines');
  command.addHelpText('after', platformEnvironment);
  refuseSecretFlags(command);
  exitTwoOnParseErrors(command);
  command.action(async (options: Omit<ReconcileFlags, 'storeFromArgv'>) => {
    const flags = { ...options, storeFromArgv: storeFromArgv(command) };
    const io = { env: process.env, out: process.stdout, err: process.stderr };
    finish(await runReconcile(flags, { ...io, stopRequested: stopSignal() }));
  });
}
