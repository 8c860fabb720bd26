import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStatuses } from '../../src/references/index.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';

// `npm start` runs `pesakit demo`: the main job on embedded defaults (in-memory sandbox, SQLite
// store). It must work on a fresh clone and leave a store that finds every transaction.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'pesakit-demo-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('pesakit demo', () => {
  it('runs every product flow, exits 0, and leaves a SQLite store with each transaction', async () => {
    const file = join(directory, 'nested', 'demo.sqlite');
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'src/cli/index.ts', 'demo', '--store', file],
      {
        cwd: root,
      },
    );
    expect(stdout).toMatch(/^sandbox {3}listening on http:\/\/127\.0\.0\.1:\d+/m);
    expect(stdout).toContain('collection pulled status: success; store says success');
    expect(stdout).toContain('airtime   vendor refused 255684000999: failed');
    expect(stdout).toMatch(/demo {6}done: 5 transactions stored in /);
    expect(stdout).not.toContain('lookup mismatch');

    const store = await SqliteReferenceStore.open(file);
    try {
      const open = await store.records.list({ statuses: [...openStatuses] });
      expect(open).toEqual([]);
      const lines = stdout.split('\n').filter((line) => /^ {2}\S{26} /.test(line));
      expect(lines).toHaveLength(5);
      for (const line of lines) {
        const merchantReference = line.trim().split(/\s+/)[0]!;
        expect((await store.records.get(merchantReference))?.merchantReference).toBe(
          merchantReference,
        );
      }
    } finally {
      await store.close();
    }
  });

  it('recreates its own store file when a build before 0.1.0 made it', async () => {
    const cwd = join(directory, 'old-clone');
    mkdirSync(join(cwd, '.pesakit'), { recursive: true });
    const old = new Database(join(cwd, '.pesakit', 'demo.sqlite'));
    old.exec(`create table pesakit_migration (name varchar(255) primary key, timestamp varchar(255));
      insert into pesakit_migration values ('0001_pesakit_transactions', '2026-01-01'),
        ('0007_inbox_finished_index', '2026-01-01');`);
    old.close();
    // Run from the old clone's directory: tsx by path, since it is not installed there.
    const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
    const cli = join(root, 'src/cli/index.ts');
    const { stdout } = await run(process.execPath, ['--import', tsx, cli, 'demo'], { cwd });
    expect(stdout).toMatch(/demo {6}done: 5 transactions stored in \.pesakit\/demo\.sqlite/);
  });
});
