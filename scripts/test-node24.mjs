#!/usr/bin/env node
// Runs the vitest suite a second time under Node 24 (users run 20, 22 and 24). Node 24 comes
// from the npm registry (`node@24` ships the binary). better-sqlite3 12 — what Node 20 users
// get, since 13 needs Node 22 — crashes under Node 24 (see node24-sqlite-hook.mjs), so this run
// uses better-sqlite3 13, as a Node 24 user would: installed into a cache next to Node 24 and
// put in place of the project's copy by a module hook. node_modules is never modified.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.cache', 'node24');
// Two prefixes: `node@24` installs its platform binary at preinstall, outside its lockfile, so a
// later install in the same prefix would prune it.
const runtime = join(cache, 'runtime');
const sqlite = join(cache, 'sqlite');
const node24 = join(
  runtime,
  'node_modules',
  'node',
  'node_modules',
  `node-${process.platform}-${process.arch}`,
  'bin',
  'node',
);
const sqlite13 = join(sqlite, 'node_modules', 'better-sqlite3');

function install(prefix, spec, marker) {
  if (existsSync(marker)) return;
  console.log(`\n[node24] installing ${spec} from the npm registry`);
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', prefix, spec], {
    stdio: 'inherit',
  });
}
install(runtime, 'node@24', node24);
install(sqlite, 'better-sqlite3@13', join(sqlite13, 'package.json'));
const version = execFileSync(node24, ['-p', 'process.versions.node']).toString().trim();

console.log(`\n[node24] running the suite under Node ${version} (better-sqlite3 13)`);
const hook = join(root, 'scripts', 'node24-sqlite-hook.mjs');
const run = spawnSync(node24, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    // Child processes (vitest workers, the CLI and fixtures the tests spawn) inherit both.
    PATH: `${dirname(node24)}:${process.env.PATH}`,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${hook}`.trim(),
    PESAKIT_BETTER_SQLITE3_DIR: sqlite13,
  },
});
process.exit(run.status ?? 1);
