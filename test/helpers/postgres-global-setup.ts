import { execFile } from 'node:child_process';
import { access, chown, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const run = promisify(execFile);

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of a PostgreSQL server the tests may create databases on. */
    postgresUrl: string;
  }
}

/** Debian's PostgreSQL 15; CI installs the same package. Override with PG_BIN. */
const { PG_BIN, DATABASE_URL } = process.env;
const binDir = PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * Starts a throwaway PostgreSQL cluster for the whole run (unless DATABASE_URL points at one)
 * and removes it afterwards. The SQL reference store is tested on a real server (DESIGN.md
 * decision 7), so a missing server is a failure, never a silent skip.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const existing = DATABASE_URL;
  if (existing) {
    project.provide('postgresUrl', existing);
    return async () => {};
  }
  const cluster = await startCluster();
  project.provide('postgresUrl', cluster.url);
  return cluster.stop;
}

async function startCluster(): Promise<{ url: string; stop: () => Promise<void> }> {
  await assertBinaries();
  await reapAbandonedClusters();
  const dir = await mkdtemp(join(tmpdir(), 'pesakit-pg-'));
  await writeFile(join(dir, ownerFile), String(process.pid));
  const asPostgres = await postgresUserRunner(dir);
  const dataDir = join(dir, 'data');
  const port = await freePort();
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
    // Durability is pointless for a throwaway cluster; turning it off keeps the tests fast.
    const serverOptions = [
      '-c listen_addresses=127.0.0.1',
      `-c port=${port}`,
      `-c unix_socket_directories=${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    await asPostgres(join(binDir, 'pg_ctl'), [
      '-D',
      dataDir,
      '-o',
      serverOptions,
      '-l',
      join(dir, 'server.log'),
      '-w',
      'start',
    ]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`Could not start the test PostgreSQL cluster in ${dir}: ${String(error)}`, {
      cause: error,
    });
  }
  const stop = async () => {
    // `fast` waits for the server's processes to exit, so none is still writing into the
    // directory while it is removed (an `immediate` stop raced the removal and left it behind).
    await asPostgres(join(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

/** Names the test run that owns a cluster directory, so a later run can tell it was abandoned. */
const ownerFile = 'owner.pid';

/**
 * A run killed before its teardown (SIGKILL, a crashed worker host) leaves its cluster running.
 * Stop and remove those whose owning process is gone; never touch a live run's cluster, nor a
 * directory without an owner file (it may not be ours).
 */
async function reapAbandonedClusters(): Promise<void> {
  const entries = await readdir(tmpdir());
  for (const entry of entries.filter((name) => name.startsWith('pesakit-pg-'))) {
    const dir = join(tmpdir(), entry);
    const owner = Number(await readFile(join(dir, ownerFile), 'utf8').catch(() => ''));
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    const asPostgres = await postgresUserRunner(dir);
    await asPostgres(join(binDir, 'pg_ctl'), [
      '-D',
      join(dir, 'data'),
      '-m',
      'fast',
      '-w',
      'stop',
    ]).catch(() => {});
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
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

/**
 * initdb refuses to run as root, so when we are root the cluster belongs to the `postgres`
 * OS user; otherwise the current user owns it.
 */
async function postgresUserRunner(
  dir: string,
): Promise<(file: string, args: string[]) => Promise<void>> {
  if (process.getuid?.() !== 0) {
    return async (file, args) => {
      await run(file, args);
    };
  }
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  await chown(dir, Number(uid.trim()), Number(gid.trim()));
  return async (file, args) => {
    await run('runuser', ['-u', 'postgres', '--', file, ...args], { cwd: dir });
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
