import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { isConfigurationError } from '../../errors/configuration-error.js';
import { runDemo } from '../demo/run-demo.js';

/** Imported on demand: better-sqlite3 and kysely are optional peers other commands must not need. */
async function loadSqliteStore() {
  try {
    return (await import('../../references/sqlite-store.js')).SqliteReferenceStore;
  } catch (error) {
    const missing = /Cannot find (?:package|module) '(better-sqlite3|kysely)'/.exec(String(error));
    if (!missing) throw error;
    throw new Error(
      `pesakit demo keeps its references in SQLite, and ${missing[1]} is not installed: ` +
        'run `npm install kysely better-sqlite3` (better-sqlite3@12 on Node 20).',
      { cause: error },
    );
  }
}

const demoStore = '.pesakit/demo.sqlite';

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'Run every product flow through the SDK against an in-memory sandbox, with a SQLite store.',
    )
    .option('--store <file>', 'SQLite file for the reference store', demoStore)
    .action(async (options: { store: string }) => {
      if (options.store !== ':memory:') await mkdir(dirname(options.store), { recursive: true });
      const SqliteReferenceStore = await loadSqliteStore();
      const store = await SqliteReferenceStore.open(options.store).catch(async (error) => {
        // The demo's own file, made by a build before 0.1.0 (refused by name): made again.
        if (options.store !== demoStore || !isConfigurationError(error) || error.option !== 'file')
          throw error;
        for (const suffix of ['', '-wal', '-shm'])
          await rm(`${demoStore}${suffix}`, { force: true });
        return SqliteReferenceStore.open(demoStore);
      });
      try {
        const records = await runDemo(store, (line) => process.stdout.write(`${line}\n`));
        const expected = ['success', 'success', 'success', 'failed', 'success'];
        const ok = records.map((record) => record.status).join() === expected.join();
        process.stdout.write(
          ok
            ? `demo      done: ${records.length} transactions stored in ${options.store}\n`
            : 'demo      FAILED: a flow did not end as expected\n',
        );
        if (ok && options.store !== ':memory:') {
          process.stdout.write(
            `dashboard see them on the operations page: npx pesakit dashboard --store ${options.store}\n`,
          );
        }
        process.exitCode = ok ? 0 : 1;
      } finally {
        await store.close();
      }
    });
}
