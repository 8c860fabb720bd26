// npm run soak -- --seed <n> --payments <k> --store sqlite|postgres [--minutes <m>]
//
// A seeded soak: the sandbox in chaos mode in its own process, two merchant processes (Express
// and the callback receiver), reconcilers (one on SQLite, two on PostgreSQL), a driver paying a
// seeded mix, SIGKILLs and restarts, forged callbacks, a database restart; then a drain and
// every check. Exits 0 only when every check holds (1 on a violation, 2 on a usage mistake).
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bulkKinds, runBulk } from './bulk.js';
import { runChecks } from './checks.js';
import { drain } from './drain.js';
import { drive } from './driver.js';
import { Fleet } from './fleet.js';
import { freePort } from './free-port.js';
import { openHandlerRuns } from './handler-runs.js';
import { openStore, soakClient } from './merchant-side.js';
import { parseSoakOptions, type SoakOptions, usage } from './options.js';
import { splitPayments } from './plan.js';
import { type PostgresCluster, startCluster } from './postgres-cluster.js';
import { ProcessFaults } from './process-faults.js';
import { reportLines } from './report.js';
import { startSandbox } from './sandbox-process.js';
import { seeded } from './seeded.js';

/** The SDK's timeout in every process; `late_answer` holds an answer just past it. */
const timeoutMs = 2000;
const lateMs = timeoutMs + 500;

let options: SoakOptions;
try {
  options = parseSoakOptions(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${usage}\n`);
  process.exit(2);
}

const cli = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('dist/ is missing: run `npm run build` (npm run soak builds first)\n');
  process.exit(2);
}

const startedAt = Date.now();
const directory = await mkdtemp(join(tmpdir(), 'pesakit-soak-'));
// The cluster's own OS user must reach its directory inside this one.
await chmod(directory, 0o755);
process.stdout.write(`soak seed ${options.seed}, ${options.store}: files in ${directory}\n`);

let cluster: PostgresCluster | null = null;
const fleet = new Fleet(directory);
let stopSandbox = async () => {};
// Ctrl-C or a CI timeout: stop every process the run started, then say where its files are.
const interrupted = (signal: NodeJS.Signals) => {
  process.stderr.write(`soak: ${signal}, stopping every process of the run\n`);
  Promise.allSettled([fleet.stopAll(), stopSandbox()])
    .then(() => cluster?.stop())
    .catch(() => {})
    .finally(() => {
      process.stderr.write(`the run's files are in ${directory}\n`);
      process.exit(130);
    });
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);
try {
  cluster = options.store === 'postgres' ? await startCluster(directory) : null;
  const location = cluster?.url ?? join(directory, 'shop.sqlite');
  const sandbox = await startSandbox(options, directory, cli, lateMs);
  stopSandbox = sandbox.stop;
  // Opened here first: the store's schema and the merchant's table exist before any child.
  const store = await openStore(options.store, location);
  const runs = await openHandlerRuns(options.store, location);

  const child = { store: options.store, location, sandboxUrl: sandbox.url, timeoutMs };
  const ports = [await freePort(), await freePort()];
  for (const [i, port] of ports.entries()) {
    await fleet.add(`merchant-${i + 1}`, 'merchant.ts', { ...child, port });
  }
  for (let i = 1; i <= (options.store === 'sqlite' ? 1 : 2); i += 1) {
    await fleet.add(`reconciler-${i}`, 'reconciler.ts', { ...child, port: 0 });
  }
  const callbackUrls = ports.map((port) => `http://127.0.0.1:${port}/pesakit/callback`);

  const pesakit = soakClient(store, sandbox.url, timeoutMs);
  const { bulkRows, singles } = splitPayments(options.payments);
  const faults = new ProcessFaults(options.seed, singles, fleet, cluster);
  const bulk: Record<string, string> = {};
  const bulkAt = seeded(options.seed, 'bulk-starts');
  const at = new Map<number, Array<() => Promise<void>>>();
  for (const kind of bulkKinds) {
    const n = bulkAt.between(Math.floor(singles * 0.1), Math.floor(singles * 0.7));
    at.set(n, [
      ...(at.get(n) ?? []),
      async () => {
        bulk[kind] = await runBulk(pesakit, options.seed, kind, bulkRows);
      },
    ]);
  }
  const driveStarted = Date.now();
  const driven = await drive({
    options,
    pesakit,
    sandbox,
    callbackUrls,
    singles,
    at,
    onStart: (n) => faults.reached(n),
  });
  await faults.settled();
  const driveMs = Date.now() - driveStarted;

  const drained = await drain(sandbox, fleet, store, {
    lateMs,
    boundMs: 90_000 + options.payments * 15,
  });
  const checks = await runChecks(store, sandbox, runs, fleet);
  const chaos = await sandbox.control<{ chaos: { drawn: Record<string, number> } }>(
    'chaos?after=0&limit=1',
  );
  await fleet.stopAll();
  await store.close();
  await runs.close();
  await sandbox.stop();
  await cluster?.stop();
  const deaths = fleet.deaths.filter((death) => death.how === 'crashed').length;
  const lines = reportLines({
    options,
    singles,
    bulkRows,
    bulk,
    drive: driven,
    sandboxFaults: chaos.chaos.drawn,
    processFaults: { ...faults.counts, crashed_on_its_own: deaths },
    driveMs,
    drained,
    totalMs: Date.now() - startedAt,
    checks,
    directory,
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  if (checks.ok && !options.keep) await rm(directory, { recursive: true, force: true });
  process.exit(checks.ok ? 0 : 1);
} catch (error) {
  process.stderr.write(`soak: ${(error as Error).stack ?? String(error)}\n`);
  await fleet.stopAll().catch(() => {});
  await stopSandbox().catch(() => {});
  await cluster?.stop().catch(() => {});
  process.stderr.write(`the run's files are in ${directory}\n`);
  process.exit(3);
}
