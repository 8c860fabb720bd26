import type { Command } from 'commander';
import { exitCodes } from '../exit-codes.js';

/** A command line or environment refused before anything is touched: exit 2. */
export class UsageError extends Error {
  override name = 'UsageError' as const;
}

/** Parse errors exit 2 like every usage error (1 means "the run failed"); help and version exit 0. */
export function exitTwoOnParseErrors(command: Command): Command {
  return command.exitOverride((error) => {
    process.exit(error.exitCode === 0 ? 0 : exitCodes.usage);
  });
}

/** Hidden flags that would put a secret in argv, so the refusal can say where it goes instead. */
export const secretFlags = [
  'password',
  'collection-password',
  'airtime-password',
  'disbursement-password',
  'api-key',
  'token',
] as const;

export function refuseSecretFlags(command: Command): Command {
  for (const flag of secretFlags) {
    command.option(`--${flag} <value>`);
    const option = command.options.at(-1);
    option?.hideHelp();
  }
  return command;
}

export function checkNoSecretFlags(options: Record<string, unknown>): void {
  for (const flag of secretFlags) {
    const key = flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
    if (options[key] !== undefined) {
      throw new UsageError(
        `--${flag} is refused: secrets on the command line leak through ps, shell history and ` +
          'cron logs. Set them in the environment instead: PESAKIT_COLLECTION_EMAIL/_PASSWORD, ' +
          'PESAKIT_AIRTIME_EMAIL/_PASSWORD, PESAKIT_DISBURSEMENT_EMAIL/_PASSWORD, PESAKIT_API_KEY.',
      );
    }
  }
}
