// A PostgreSQL 15 cluster the soak owns (initdb and pg_ctl, 127.0.0.1 only), so that it can
// restart the server mid-run. As root, the cluster belongs to the `postgres` OS user (initdb
// refuses root). Override the binaries' directory with PG_BIN.
import { execFile } from 'node:child_process';
import { chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);
const binDir = process.env['PG_BIN'] ?? '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  url: string;
  /** An immediate stop (no clean shutdown: every connection is cut) and a start. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startCluster(directory: string): Promise<PostgresCluster> {
  const home = join(directory, 'postgres');
  await mkdir(home);
  const asPostgres = await runnerFor(home);
  const dataDir = join(home, 'data');
  const port = await freePort();
  await asPostgres(join(binDir, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  // fsync off: the server is stopped, never the machine, so the OS keeps every write.
  const serverOptions = [
    '-c listen_addresses=127.0.0.1',
    `-c port=${port}`,
    `-c unix_socket_directories=${home}`,
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  const pgCtl = (args: string[]) => asPostgres(join(binDir, 'pg_ctl'), ['-D', dataDir, ...args]);
  const start = () => pgCtl(['-o', serverOptions, '-l', join(home, 'server.log'), '-w', 'start']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      await pgCtl(['-m', 'immediate', '-w', 'stop']);
      await start();
    },
    stop: () => pgCtl(['-m', 'fast', '-w', 'stop']),
  };
}

async function runnerFor(home: string): Promise<(file: string, args: string[]) => Promise<void>> {
  if (process.getuid?.() !== 0) {
    return async (file, args) => {
      await run(file, args);
    };
  }
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  await chown(home, Number(uid.trim()), Number(gid.trim()));
  return async (file, args) => {
    await run('runuser', ['-u', 'postgres', '--', file, ...args], { cwd: home });
  };
}
