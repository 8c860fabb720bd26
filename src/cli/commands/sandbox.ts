import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { type ChaosOptions, createSandbox, type Seed } from '../../sandbox/index.js';
import { exitTwoOnParseErrors } from '../reconcile/usage-error.js';
import { collect, listenFailure, portNumber, wholeNumber } from './options.js';

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
  chaos?: string;
  chaosRate?: string;
  chaosFaults?: string;
  chaosLateMs?: string;
  recordLimit?: number;
  logLimit?: number;
}

/** `--chaos <seed>` and its companions as the `chaos` option; createSandbox checks the values. */
function chaosOption(options: SandboxCommandOptions): ChaosOptions | undefined {
  const { chaos, chaosRate, chaosFaults, chaosLateMs } = options;
  if (chaos === undefined) {
    const stray = [
      ['--chaos-rate', chaosRate],
      ['--chaos-faults', chaosFaults],
      ['--chaos-late-ms', chaosLateMs],
    ].find(([, value]) => value !== undefined);
    if (stray) throw new Error(`${stray[0]} needs --chaos <seed>.`);
    return undefined;
  }
  // A seed of digits is a number, so `--chaos 42` and `{ chaos: { seed: 42 } }` draw alike.
  const seed = /^\d{1,15}$/.test(chaos) ? Number(chaos) : chaos;
  return {
    seed,
    ...(chaosRate === undefined ? {} : { rate: Number(chaosRate) }),
    ...(chaosFaults === undefined
      ? {}
      : {
          faults: chaosFaults
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== '') as ChaosOptions['faults'] & string[],
        }),
    ...(chaosLateMs === undefined ? {} : { lateMs: Number(chaosLateMs) }),
  };
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
    .option('--chaos <seed>', 'chaos mode: draw faults per request and callback from this seed')
    .option(
      '--chaos-rate <rate>',
      'share of requests and callbacks that draw a fault, 0 to 1 (default 0.1)',
    )
    .option(
      '--chaos-faults <names>',
      'comma-separated faults to draw (default every fault but contradict_answer, contradict_history)',
    )
    .option('--chaos-late-ms <ms>', 'how long late_answer holds an answer (default 31000)')
    .option(
      '--record-limit <n>',
      'records of each kind kept before 429 sandbox_full (default 10000)',
      wholeNumber('--record-limit', 1_000_000),
    )
    .option(
      '--log-limit <n>',
      'entries kept in each log: deliveries, requests, chaos timeline (default 100000)',
      wholeNumber('--log-limit', 10_000_000),
    )
    .action(async (options: SandboxCommandOptions) => {
      let sandbox: Awaited<ReturnType<typeof createSandbox>>;
      try {
        sandbox = await createSandbox({
          allowedHosts: options.allowedHost,
          ...(options.controlKey !== undefined ? { controlKey: options.controlKey } : {}),
          ...(options.engineKey !== undefined ? { engineKey: options.engineKey } : {}),
          ...(options.seed !== undefined ? { seed: await readSeed(options.seed) } : {}),
          ...(options.recordLimit !== undefined ? { recordLimit: options.recordLimit } : {}),
          ...(options.logLimit !== undefined ? { logLimit: options.logLimit } : {}),
          ...(() => {
            const chaos = chaosOption(options);
            return chaos === undefined ? {} : { chaos };
          })(),
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
      const chaos = sandbox.inspect.chaosSettings();
      if (chaos.enabled) {
        // On stderr: stdout keeps its one ready line for scripts.
        process.stderr.write(
          `pesakit sandbox: chaos mode, seed ${chaos.seed}, rate ${chaos.rate}, faults ${chaos.faults.join(',')}\n`,
        );
      }
    });
}
