import { type Command, Option } from 'commander';
import { formatVerifyReport, verifyAgainstSandbox } from '../../testing/verify-against-sandbox.js';
import { exitCodes } from '../exit-codes.js';
import { withStore } from '../reconcile/open-store.js';
import { exitTwoOnParseErrors, UsageError } from '../reconcile/usage-error.js';
import { finish, schemaOption, storeEnvironment, storeFromArgv, storeOption } from './options.js';

/** At least one check failed: a person must look (as `review list` when a record waits). */
export const verifyFailedExitCode = 3;

interface VerifyFlags {
  store?: string;
  schema?: string;
  sandbox?: string;
  controlKey?: string;
  detail: string;
}

/** `pesakit verify`: the store against the sandbox's truth; one line per check, 0 only when all hold. */
export function registerVerifyCommand(program: Command): void {
  const command = program
    .command('verify')
    .description(
      "Check a store against the sandbox's own truth (after a drain): exits 0 only when every check holds, 3 when one fails.",
    )
    .addOption(storeOption())
    .addOption(schemaOption())
    .addOption(
      new Option('--sandbox <url>', 'the sandbox the store was written against').env(
        'PESAKIT_SANDBOX_URL',
      ),
    )
    .addOption(
      new Option('--control-key <key>', "the sandbox's control key, when it has one").env(
        'PESAKIT_CONTROL_KEY',
      ),
    )
    .option('--detail <n>', 'violations printed per check', '20')
    .addHelpText('after', storeEnvironment);
  exitTwoOnParseErrors(command);
  command.action(async (flags: VerifyFlags) => {
    const io = { out: process.stdout, err: process.stderr };
    const detail = Number(flags.detail);
    const code = await withStore(
      'verify',
      { ...flags, storeFromArgv: storeFromArgv(command) },
      io,
      () => {
        if (flags.sandbox === undefined) {
          throw new UsageError(
            'Which sandbox? Pass --sandbox http://127.0.0.1:4010 (or set PESAKIT_SANDBOX_URL).',
          );
        }
        if (!URL.canParse(flags.sandbox) || !/^https?:$/.test(new URL(flags.sandbox).protocol)) {
          throw new UsageError(`--sandbox must be an http(s) URL, got ${flags.sandbox}.`);
        }
        if (!Number.isSafeInteger(detail) || detail < 0) {
          throw new UsageError('--detail must be a whole number of at least 0.');
        }
      },
      async (store) => {
        const report = await verifyAgainstSandbox({
          store,
          sandbox: {
            url: flags.sandbox as string,
            ...(flags.controlKey === undefined ? {} : { controlKey: flags.controlKey }),
          },
        });
        for (const line of formatVerifyReport(report, detail)) io.out.write(`${line}\n`);
        return report.ok ? exitCodes.ok : verifyFailedExitCode;
      },
    );
    finish(code);
  });
}
