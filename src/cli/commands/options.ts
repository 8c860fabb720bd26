import { type Command, InvalidArgumentError, Option } from 'commander';

export const storeOption = () =>
  new Option('--store <store>', 'SQLite file or postgres:// URL of the reference store').env(
    'PESAKIT_STORE',
  );

export const schemaOption = () =>
  new Option('--schema <name>', 'PostgreSQL schema of the store (default public)').env(
    'PESAKIT_STORE_SCHEMA',
  );

export const environmentOption = (what: string) =>
  new Option('-e, --environment <environment>', what)
    .choices(['sandbox', 'production'])
    .makeOptionMandatory();

/**
 * A whole-number flag within bounds, checked by commander: a value out of range is a usage
 * error (exit 2) before anything runs, not a failed run.
 */
export function wholeNumber(flag: string, max = Number.POSITIVE_INFINITY) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < 1 || parsed > max) {
      throw new InvalidArgumentError(
        max === Number.POSITIVE_INFINITY
          ? `${flag} must be a whole number of at least 1.`
          : `${flag} must be a whole number from 1 to ${max}.`,
      );
    }
    return parsed;
  };
}

/** False when `--store` came from `PESAKIT_STORE`: only then may a URL carry a password. */
export const storeFromArgv = (command: Command) => command.getOptionValueSource('store') !== 'env';

/** Sets the exit code; whatever a library leaves open (a keep-alive socket, a timer), a job ends. */
export function finish(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}
