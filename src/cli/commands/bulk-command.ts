import type { Command } from 'commander';
import { type BulkCommand, type BulkFlags, runBulk } from '../bulk/run-bulk.js';
import { stopSignal } from '../reconcile/stop-signal.js';
import { exitTwoOnParseErrors, refuseSecretFlags } from '../reconcile/usage-error.js';
import {
  environmentHelp,
  environmentOption,
  finish,
  storeFromArgv,
  storeOption,
  wholeNumber,
} from './options.js';

const exitCodes =
  'Exit codes: 0 every row succeeded, 3 some rows failed, 4 some rows open (rerun / ' +
  'reconcile), 5 refused before anything was sent, 6 nothing sent: these rows already ran ' +
  'under the batch id, 1 the run failed, 2 usage error.';

/** `pesakit <product> bulk <file>`: one command shape for every product the bulk engine sends. */
export function registerBulkCommand(
  parent: Command,
  command: BulkCommand,
  what: string,
  extra: (bulk: Command) => void = () => {},
): void {
  const env = `PESAKIT_${command.product.toUpperCase()}`;
  const bulk = parent
    .command('bulk <file>')
    .description(`${what} ${exitCodes}`)
    .option(
      '--batch-id <id>',
      'run or resume this batch (rows already sent are never sent again); default: an id ' +
        'derived from the rows, which resumes a run of the same rows started in the last 24 ' +
        'hours. Paying the same rows again (next month) takes a new id',
    )
    .option('--concurrency <n>', 'rows in flight (default 4)', wholeNumber('--concurrency', 64))
    .option('--out <file>', 'write every row’s outcome to this .xlsx or .csv file')
    .addOption(storeOption())
    .addOption(environmentOption('which platform to send to'))
    .option('--base-url <url>', 'the sandbox origin (default: $PESAKIT_BASE_URL)')
    .option('--json', 'JSON lines on stdout, for log pipelines');
  extra(bulk);
  bulk.addHelpText(
    'after',
    environmentHelp([
      ['PESAKIT_STORE', 'the store, when --store is not given'],
      ['PESAKIT_BASE_URL', 'the sandbox origin, when --base-url is not given'],
      [`${env}_EMAIL`, `the ${command.product} account's email`],
      [`${env}_PASSWORD`, `the ${command.product} account's password`],
      [`${env}_BASE_URL`, `the ${command.product} host (production)`],
    ]),
  );
  refuseSecretFlags(bulk);
  exitTwoOnParseErrors(bulk);
  bulk.action(async (file: string, options: Omit<BulkFlags, 'storeFromArgv'>) => {
    const flags = { ...options, storeFromArgv: storeFromArgv(bulk) };
    const io = { env: process.env, out: process.stdout, err: process.stderr };
    finish(await runBulk(command, file, flags, { ...io, stopRequested: stopSignal() }));
  });
}
