// A throwaway PostgreSQL 15 cluster (initdb and pg_ctl, 127.0.0.1 only): the one the test suite
// runs on and the one the soak owns, so that it can restart the server mid-run. As root, the
// cluster belongs to the `postgres` OS user (initdb refuses root). Override the binaries'
// directory with PG_BIN.
import { execFile } from 'node:child_process';
import { access, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);
/** Debian's PostgreSQL 15; CI installs the same package. */
const binDir = process.env['PG_BIN'] ?? '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  url: string;
  /**
   * An immediate stop (no clean shutdown: every connection is cut) and a start, after any
   * restart already in progress.
   */
  restart(): Promise<void>;
  /** A fast stop (it waits for the server's processes); a directory of its own is removed. */
  stop(): Promise<void>;
}

/**
 * Starts a cluster in `<inside>/postgres`, or, without `inside`, in a directory of its own under
 * the OS's temporary directory, removed by `stop()` — and by a later run if this one was killed
 * before it could stop it.
 */
export async function startCluster(inside?: string): Promise<PostgresCluster> {
  await assertBinaries();
  let home: string;
  if (inside === undefined) {
    await reapAbandonedClusters();
    home = await mkdtemp(join(tmpdir(), ownedPrefix));
    await writeFile(join(home, ownerFile), String(process.pid));
  } else {
    home = join(inside, 'postgres');
    await mkdir(home);
  }
  const asPostgres = await runnerFor(home);
  const dataDir = join(home, 'data');
  const port = await freePort();
  // Durability is pointless here: the server is stopped, never the machine, so the OS keeps
  // every write.
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
  try {
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
    await start();
  } catch (error) {
    if (inside === undefined) await rm(home, { recursive: true, force: true });
    throw new Error(`Could not start a PostgreSQL cluster in ${home}: ${String(error)}`, {
      cause: error,
    });
  }
  // One restart at a time: a stop sent while another restart's start is waiting for the server
  // would leave that start waiting for a server that is gone.
  let restarting: Promise<void> = Promise.resolve();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart() {
      restarting = restarting
        .catch(() => {})
        .then(async () => {
          await pgCtl(['-m', 'immediate', '-w', 'stop']);
          await start();
        });
      return restarting;
    },
    async stop() {
      // `fast` waits for the server's processes to exit, so none is still writing into the
      // directory while it is removed.
      await pgCtl(['-m', 'fast', '-w', 'stop']);
      if (inside === undefined) {
        await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      }
    },
  };
}

const ownedPrefix = 'pesakit-pg-';
/** Names the process that owns a cluster directory, so a later run can tell it was abandoned. */
const ownerFile = 'owner.pid';

/**
 * A run killed before it stopped its cluster (SIGKILL, a crashed worker host) leaves it running.
 * Stop and remove those whose owning process is gone; never touch a live run's cluster, nor a
 * directory without an owner file (it may not be ours).
 */
async function reapAbandonedClusters(): Promise<void> {
  const entries = await readdir(tmpdir());
  for (const entry of entries.filter((name) => name.startsWith(ownedPrefix))) {
    const home = join(tmpdir(), entry);
    const owner = Number(await readFile(join(home, ownerFile), 'utf8').catch(() => ''));
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    const asPostgres = await runnerFor(home);
    await asPostgres(join(binDir, 'pg_ctl'), [
      '-D',
      join(home, 'data'),
      '-m',
      'fast',
      '-w',
      'stop',
    ]).catch(() => {});
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function assertBinaries(): Promise<void> {
  try {
    await access(join(binDir, 'initdb'));
    await access(join(binDir, 'pg_ctl'));
  } catch {
    throw new Error(
      `PostgreSQL 15 binaries not found in ${binDir}. Install postgresql-15 (Debian: ` +
        'apt-get install postgresql-15), set PG_BIN to their directory, or set DATABASE_URL to ' +
        'a server the tests may create databases on.',
    );
  }
}

/** Runs PostgreSQL's binaries as the `postgres` OS user when we are root, else as ourselves. */
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
