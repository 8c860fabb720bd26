import { createInterface } from 'node:readline';
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
  wholeNumber,
} from './options.js';

interface DashboardCommandOptions {
  store?: string;
  schema?: string;
  port: number;
  host: string;
  allowedHost: string[];
  sessionHours: number;
  signIn?: boolean;
}

type Io = { out: NodeJS.WritableStream; err: NodeJS.WritableStream };

/**
 * Prints the address, a one-time sign-in address (Enter prints another), and any warning;
 * SIGINT/SIGTERM close it and the store, exit 0. `--sign-in` asks a running one for a code.
 */
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
    .option(
      '--session-hours <hours>',
      'how long a sign-in lasts (1 to 720)',
      wholeNumber('--session-hours', 720),
      12,
    )
    .option(
      '--sign-in',
      'print a new one-time sign-in address from the dashboard running on --host/--port',
    )
    // The token only from the environment: on the command line, ps and shell history keep it.
    .addHelpText(
      'after',
      environmentHelp([
        ...storeVariables,
        [
          'PESAKIT_DASHBOARD_TOKEN',
          'the bearer token for scripts and --sign-in (default: a random one)',
        ],
      ]),
    );
  exitTwoOnParseErrors(command);
  command.action(async (options: DashboardCommandOptions) => {
    const io = { out: process.stdout, err: process.stderr };
    const token = process.env['PESAKIT_DASHBOARD_TOKEN'] || undefined;
    if (options.signIn) return finish(await askForSignIn(options, token, io));
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
        const dashboard = createDashboard({
          store,
          host: options.host,
          port: options.port,
          allowedHosts: options.allowedHost,
          sessionMs: options.sessionHours * 3_600_000,
          onWarning: (message) => io.err.write(`pesakit dashboard: warning: ${message}\n`),
          ...(token !== undefined && { token }),
        });
        try {
          io.out.write(`pesakit dashboard on ${await dashboard.listen()}\n`);
        } catch (error) {
          io.err.write(`pesakit dashboard: ${listenFailure(error, options.host, options.port)}\n`);
          await dashboard.close();
          return exitCodes.runError;
        }
        const others = dashboard.urls.slice(1);
        if (others.length > 0) io.out.write(`also reachable at ${others.join(', ')}\n`);
        const signIn = () =>
          io.out.write(
            `sign in (once, within 60 s): ${dashboard.signInUrl()}\n` +
              'press Enter here for another, or run pesakit dashboard --sign-in\n',
          );
        signIn();
        // Each line typed where it runs prints a new code, so the token never goes in an address.
        const keys = createInterface({ input: process.stdin });
        keys.on('line', signIn);
        await stopped;
        keys.close();
        process.stdin.destroy();
        await dashboard.close();
        return exitCodes.ok;
      },
    );
    finish(code);
  });
}

/** `--sign-in`: the running dashboard's new code, asked for with the token. */
async function askForSignIn(
  options: DashboardCommandOptions,
  token: string | undefined,
  io: Io,
): Promise<number> {
  if (token === undefined) {
    io.err.write(
      'pesakit dashboard --sign-in: set PESAKIT_DASHBOARD_TOKEN to the token the running dashboard was started with (or press Enter where it runs).\n',
    );
    return exitCodes.usage;
  }
  const wildcard = ['0.0.0.0', '::', '[::]'].includes(options.host);
  const host = wildcard ? '127.0.0.1' : options.host;
  const origin = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${options.port}`;
  try {
    const response = await fetch(`${origin}/api/sign-in-codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { url?: string; message?: string };
    if (!response.ok || body.url === undefined) {
      io.err.write(
        `pesakit dashboard --sign-in: ${origin} answered ${response.status}: ${body.message ?? 'no address'}\n`,
      );
      return exitCodes.runError;
    }
    io.out.write(`sign in (once, within 60 s): ${body.url}\n`);
    return exitCodes.ok;
  } catch (error) {
    io.err.write(
      `pesakit dashboard --sign-in: no dashboard answers at ${origin} (${(error as Error).message}); pass the --host and --port it runs with.\n`,
    );
    return exitCodes.runError;
  }
}
