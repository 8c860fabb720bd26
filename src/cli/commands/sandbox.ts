import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { createSandbox, type Seed } from '../../sandbox/index.js';
import { exitTwoOnParseErrors } from '../reconcile/usage-error.js';
import { collect, listenFailure, portNumber } from './options.js';

async function readSeed(path: string): Promise<Seed> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Seed;
  } catch (error) {
    throw new Error(`cannot read the seed file ${path}: ${(error as Error).message}`);
  }
}

function fail(code: number, message: string): void {
  process.stderr.write(`pesakit sandbox: ${message}\n`);
  process.exit(code);
}

interface SandboxCommandOptions {
  port: number;
  host: string;
  allowedHost: string[];
  controlKey?: string;
  engineKey?: string;
  seed?: string;
}

/** Prints one ready line (`… listening on http://host:port`); SIGINT/SIGTERM close and exit 0. */
export function registerSandboxCommand(program: Command): void {
  const command = program.command('sandbox');
  // A mistyped flag is a usage error (2), as in every pesakit command: 1 means a busy port.
  exitTwoOnParseErrors(command);
  command
    .description('Start the local sandbox of the payments platform.')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', portNumber, 4010)
    .option('-H, --host <host>', 'address to listen on', '127.0.0.1')
    .option('--control-key <key>', 'require this x-control-key on the control API')
    .option(
      '--allowed-host <name>',
      'also answer the control API at this host name (repeatable; loopback names always)',
      collect,
      [],
    )
    .option('--engine-key <key>', 'require this x-engine-key on the engine callback route')
    .option('--seed <file>', 'JSON file with {"accounts": [...]} created at start and on reset')
    .action(async (options: SandboxCommandOptions) => {
      let sandbox: Awaited<ReturnType<typeof createSandbox>>;
      try {
        sandbox = await createSandbox({
          allowedHosts: options.allowedHost,
          ...(options.controlKey !== undefined ? { controlKey: options.controlKey } : {}),
          ...(options.engineKey !== undefined ? { engineKey: options.engineKey } : {}),
          ...(options.seed !== undefined ? { seed: await readSeed(options.seed) } : {}),
        });
      } catch (error) {
        // A bad seed file is a usage mistake; the message names the file or field, never a value.
        return fail(2, (error as Error).message);
      }
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
      // Before the ready line: scripts signal once they read it; with no listener the OS kills.
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);

      let url: string;
      try {
        url = await sandbox.listen({ port: options.port, host: options.host });
      } catch (error) {
        await sandbox.close().catch(() => undefined);
        return fail(1, listenFailure(error, options.host, options.port));
      }
      process.stdout.write(`pesakit sandbox listening on ${url}\n`);
    });
}
