#!/usr/bin/env node
// Runs the vitest suite a second time under Node 24 (users run 20, 22 and 24). Node 24 comes
// from the npm registry (`node@24` ships the binary and its headers); better-sqlite3 is a native
// addon built for Node 20's ABI, so a Node 24 build of it is compiled once from the installed
// sources and cached. Both builds are laid out under better-sqlite3's `compiled/<version>/…`,
// where its loader (`bindings`) picks the one matching the running Node.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const cache = join(root, '.cache', 'node24');
const platformPackage = `node-${process.platform}-${process.arch}`;
const node24Home = join(cache, 'node_modules', 'node', 'node_modules', platformPackage);
const node24 = join(node24Home, 'bin', 'node');

function step(message) {
  console.log(`\n[node24] ${message}`);
}

if (!existsSync(node24)) {
  step('installing node@24 from the npm registry');
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, 'package.json'), '{"private":true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', cache, 'node@24'], {
    stdio: 'inherit',
  });
}
const version = execFileSync(node24, ['-p', 'process.versions.node']).toString().trim();

const sqliteRoot = dirname(
  createRequire(join(root, 'package.json')).resolve('better-sqlite3/package.json'),
);
const compiledFor = (nodeVersion) =>
  join(sqliteRoot, 'compiled', nodeVersion, process.platform, process.arch, 'better_sqlite3.node');

// `bindings` tries build/Release before compiled/<version>: move the default build out of the
// way (keeping it for this runtime) so each Node finds its own.
const defaultBuild = join(sqliteRoot, 'build', 'Release', 'better_sqlite3.node');
if (existsSync(defaultBuild)) {
  mkdirSync(dirname(compiledFor(process.versions.node)), { recursive: true });
  renameSync(defaultBuild, compiledFor(process.versions.node));
}

if (!existsSync(compiledFor(version))) {
  step(`compiling better-sqlite3 for Node ${version} (once; cached)`);
  const source = join(cache, 'better-sqlite3-src');
  rmSync(source, { recursive: true, force: true });
  cpSync(sqliteRoot, source, {
    recursive: true,
    filter: (path) =>
      !path.startsWith(join(sqliteRoot, 'build')) && !path.startsWith(join(sqliteRoot, 'compiled')),
  });
  const npmRoot = execFileSync('npm', ['root', '-g']).toString().trim();
  const nodeGyp = join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  execFileSync(node24, [nodeGyp, 'rebuild', '--release', `--nodedir=${node24Home}`, '-j', '2'], {
    cwd: source,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PATH: `${dirname(node24)}:${process.env.PATH}` },
  });
  mkdirSync(dirname(compiledFor(version)), { recursive: true });
  cpSync(join(source, 'build', 'Release', 'better_sqlite3.node'), compiledFor(version));
}

step(`running the suite under Node ${version}`);
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(node24, [vitest, 'run'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(node24)}:${process.env.PATH}` },
});
process.exit(run.status ?? 1);
