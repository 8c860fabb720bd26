import { type Command, InvalidArgumentError, Option } from 'commander';
import { type AirtimeBulkFlags, runAirtimeBulk } from '../airtime-bulk/run-airtime-bulk.js';
import { stopSignal } from '../reconcile/stop-signal.js';
import { exitTwoOnParseErrors, refuseSecretFlags } from '../reconcile/usage-error.js';

function concurrency(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < 1 || parsed > 64) {
    throw new InvalidArgumentError('--concurrency must be a whole number from 1 to 64.');
  }
  return parsed;
}

/**
 * `pesakit airtime bulk <file>`: airtime for every row of an .xlsx/.csv file, resumable after a
 * crash with the same --batch-id. Credentials from the environment, as `pesakit reconcile`
 * takes them. Exit codes: 0 all succeeded, 3 some failed, 4 some unknown or skipped, 5 refused
 * before sending, 1 the run failed, 2 usage error.
 */
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
    .option('--concurrency <n>', 'purchases in flight (default 4)', concurrency)
    .option('--out <file>', 'write every row’s outcome to this .xlsx or .csv file')
    .addOption(
      new Option('--store <store>', 'SQLite file or postgres:// URL of the reference store').env(
        'PESAKIT_STORE',
      ),
    )
    .addOption(
      new Option('-e, --environment <environment>', 'which platform to send to')
        .choices(['sandbox', 'production'])
        .makeOptionMandatory(),
    )
    .option('--base-url <url>', 'the sandbox origin (default: $PESAKIT_BASE_URL)')
    .option('--json', 'JSON lines on stdout, for log pipelines');
  refuseSecretFlags(bulk);
  exitTwoOnParseErrors(bulk);
  bulk.action(async (file: string, options: Record<string, unknown>) => {
    const code = await runAirtimeBulk(
      file,
      {
        ...(options as Omit<AirtimeBulkFlags, 'storeFromArgv'>),
        storeFromArgv: bulk.getOptionValueSource('store') !== 'env',
      },
      { env: process.env, out: process.stdout, err: process.stderr, stopRequested: stopSignal() },
    );
    process.exitCode = code;
    // Whatever a library leaves open (a keep-alive socket, a timer), a batch job must end.
    setTimeout(() => process.exit(code), 2000).unref();
  });
}
