import type { Command } from 'commander';
import { createDashboard } from '../../dashboard/server.js';
import { exitCodes } from '../exit-codes.js';
import { withStore } from '../reconcile/open-store.js';
import { exitTwoOnParseErrors } from '../reconcile/usage-error.js';
import {
  collect,
  environmentHelp,
  finish,
  listenFailure,
  portNumber,
  schemaOption,
  storeFromArgv,
  storeOption,
  storeVariables,
} from './options.js';

interface DashboardCommandOptions {
  store?: string;
  schema?: string;
  port: number;
  host: string;
  allowedHost: string[];
}

/** Prints one ready line with the address to open; SIGINT/SIGTERM close it and the store, exit 0. */
export function registerDashboardCommand(program: Command): void {
  const command = program
    .command('dashboard')
    .description('Serve the operations page over a reference store (loopback only by default).')
    .addOption(storeOption())
    .addOption(schemaOption())
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', portNumber, 4020)
    .option('-H, --host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--allowed-host <name>',
      'also answer at this host name (repeatable; loopback names always)',
      collect,
      [],
    )
    // The token only from the environment: on the command line, ps and shell history keep it.
    .addHelpText(
      'after',
      environmentHelp([
        ...storeVariables,
        ['PESAKIT_DASHBOARD_TOKEN', 'the token that opens the page (default: a random one)'],
      ]),
    );
  exitTwoOnParseErrors(command);
  command.action(async (options: DashboardCommandOptions) => {
    const io = { out: process.stdout, err: process.stderr };
    const flags = { ...options, storeFromArgv: storeFromArgv(command) };
    const stopped = new Promise<void>((resolve) => {
      // Before the ready line: scripts signal once they read it; with no listener the OS kills.
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    const code = await withStore(
      'dashboard',
      flags,
      io,
      () => {},
      async (store) => {
        const token = process.env['PESAKIT_DASHBOARD_TOKEN'] || undefined;
        const dashboard = createDashboard({
          store,
          host: options.host,
          port: options.port,
          allowedHosts: options.allowedHost,
          ...(token !== undefined && { token }),
        });
        try {
          io.out.write(`pesakit dashboard on ${await dashboard.listen()}\n`);
        } catch (error) {
          io.err.write(`pesakit dashboard: ${listenFailure(error, options.host, options.port)}\n`);
          await dashboard.close();
          return exitCodes.runError;
        }
        await stopped;
        await dashboard.close();
        return exitCodes.ok;
      },
    );
    finish(code);
  });
}
