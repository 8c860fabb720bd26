import type { Command } from 'commander';
import { type AirtimeBulkFlags, runAirtimeBulk } from '../bulk/run-airtime-bulk.js';
import { stopSignal } from '../reconcile/stop-signal.js';
import { exitTwoOnParseErrors, refuseSecretFlags } from '../reconcile/usage-error.js';
import {
  airtimeEnvironment,
  environmentOption,
  finish,
  storeFromArgv,
  storeOption,
  wholeNumber,
} from './options.js';

export function registerAirtimeCommand(program: Command): void {
  const airtime = program.command('airtime').description('Airtime jobs.');
  const bulk = airtime
    .command('bulk <file>')
    .description(
      'Send airtime to every row of an .xlsx or .csv file (header: msisdn, amount, optional ' +
        'reference). Exit codes: 0 every row succeeded, 3 some rows failed, 4 some rows unknown ' +
        'or skipped (rerun with --batch-id / reconcile), 5 refused before anything was sent, ' +
        '1 the run failed, 2 usage error.',
    )
    .option('--batch-id <id>', 'resume this batch (rows already sent are never sent again)')
    .option(
      '--concurrency <n>',
      'purchases in flight (default 4)',
      wholeNumber('--concurrency', 64),
    )
    .option('--out <file>', 'write every row’s outcome to this .xlsx or .csv file')
    .addOption(storeOption())
    .addOption(environmentOption('which platform to send to'))
    .option('--base-url <url>', 'the sandbox origin (default: $PESAKIT_BASE_URL)')
    .option('--json', 'JSON lines on stdout, for log pipelines');
  bulk.addHelpText('after', airtimeEnvironment);
  refuseSecretFlags(bulk);
  exitTwoOnParseErrors(bulk);
  bulk.action(async (file: string, options: Omit<AirtimeBulkFlags, 'storeFromArgv'>) => {
    const flags = { ...options, storeFromArgv: storeFromArgv(bulk) };
    const io = { env: process.env, out: process.stdout, err: process.stderr };
    finish(await runAirtimeBulk(file, flags, { ...io, stopRequested: stopSignal() }));
  });
}
