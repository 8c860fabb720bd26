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

/** A whole-number flag within bounds: out of range is a usage error (exit 2). */
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

/** A `--port`: 0 picks a free one. */
export function portNumber(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65_535) {
    throw new InvalidArgumentError('the port must be a whole number from 0 to 65535.');
  }
  return parsed;
}

/** Why a server could not listen, for a person: a busy port says how to pick another. */
export function listenFailure(error: unknown, host: string, port: number): string {
  return (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
    ? `port ${port} on ${host} is in use: stop what holds it, or pass --port 0 for a free one.`
    : `cannot listen on ${host}:${port}: ${(error as Error).message}`;
}

/** A repeatable flag's values, in order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** False when `--store` came from `PESAKIT_STORE`: only then may a URL carry a password. */
export const storeFromArgv = (command: Command) => command.getOptionValueSource('store') !== 'env';

/** Sets the exit code; whatever a library leaves open (a keep-alive socket, a timer), a job ends. */
export function finish(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}

export function environmentHelp(variables: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...variables.map(([name]) => name.length)) + 2;
  const lines = variables.map(([name, meaning]) => `  ${name.padEnd(width)}${meaning}`);
  return `\nEnvironment:\n${lines.join('\n')}\n`;
}

export const storeVariables = [
  ['PESAKIT_STORE', 'the store, when --store is not given'],
  ['PESAKIT_STORE_SCHEMA', "a PostgreSQL store's schema, when --schema is not given"],
] as const;

export const storeEnvironment = environmentHelp(storeVariables);

export const platformEnvironment = environmentHelp([
  ...storeVariables,
  ['PESAKIT_BASE_URL', 'the sandbox origin, when --base-url is not given'],
  ...(['collection', 'airtime', 'disbursement'] as const).flatMap(
    (product) =>
      [
        [`PESAKIT_${product.toUpperCase()}_EMAIL`, `the ${product} account's email`],
        [`PESAKIT_${product.toUpperCase()}_PASSWORD`, `the ${product} account's password`],
        [`PESAKIT_${product.toUpperCase()}_BASE_URL`, `the ${product} host (production)`],
      ] as const,
  ),
  ['PESAKIT_API_KEY', 'the x-api-key of pay_mobile collections'],
]);
