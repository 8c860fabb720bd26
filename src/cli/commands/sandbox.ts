import { readFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import { createSandbox, type Seed } from '../../sandbox/index.js';

function port(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65_535) {
    throw new InvalidArgumentError('the port must be a whole number from 0 to 65535.');
  }
  return parsed;
}

async function readSeed(path: string): Promise<Seed> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Seed;
  } catch (error) {
    throw new Error(`Cannot read the seed file ${path}: ${(error as Error).message}`);
  }
}

interface SandboxCommandOptions {
  port: number;
  host: string;
  controlKey?: string;
  engineKey?: string;
  seed?: string;
}

/**
 * `pesakit sandbox`: starts the whole platform locally. Prints exactly one line to stdout when
 * ready (`… listening on http://host:port`), which scripts wait for; SIGINT and SIGTERM close it
 * cleanly and exit 0.
 */
export function registerSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description('Start the local sandbox of the payments platform.')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', port, 4010)
    .option('-H, --host <host>', 'address to listen on', '127.0.0.1')
    .option('--control-key <key>', 'require this x-control-key on the control API')
    .option('--engine-key <key>', 'require this x-engine-key on the engine callback route')
    .option('--seed <file>', 'JSON file with {"accounts": [...]} created at start and on reset')
    .action(async (options: SandboxCommandOptions) => {
      const sandbox = await createSandbox({
        ...(options.controlKey !== undefined ? { controlKey: options.controlKey } : {}),
        ...(options.engineKey !== undefined ? { engineKey: options.engineKey } : {}),
        ...(options.seed !== undefined ? { seed: await readSeed(options.seed) } : {}),
      });
      let closing = false;
      const stop = () => {
        if (closing) return;
        closing = true;
        sandbox.close().then(
          () => process.exit(0),
          (error: unknown) => {
            process.stderr.write(`pesakit sandbox: error while closing: ${String(error)}\n`);
            process.exit(1);
          },
        );
      };
      // Before the ready line, never after: until a listener exists, a signal gets the OS
      // default and kills the process mid-flight — and scripts signal as soon as they read it.
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);

      const url = await sandbox.listen({ port: options.port, host: options.host });
      process.stdout.write(`pesakit sandbox listening on ${url}\n`);
    });
}
