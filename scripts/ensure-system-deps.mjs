#!/usr/bin/env node
// The suite runs real parts: headless Chromium for the checkout page and a throwaway
// PostgreSQL 15 cluster for the SQL store. On a fresh machine neither is installed, so this
// step (run before `npm test`) installs them from Debian when it can, and otherwise says
// exactly what to install. It never skips anything silently.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const needs = [];
if (!existsSync('/usr/bin/chromium')) needs.push('chromium');
if (!existsSync('/usr/lib/postgresql/15/bin/initdb')) needs.push('postgresql-15');
if (needs.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  console.error(
    `pesakit tests need ${needs.join(' and ')} (Debian packages). Install them with:\n` +
      `  sudo apt-get update && sudo apt-get install -y ${needs.join(' ')}\n` +
      'or point DATABASE_URL at a PostgreSQL server for the SQL store tests.',
  );
  process.exit(1);
}

console.log(`pesakit: installing ${needs.join(', ')} from Debian for the test suite…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...needs], {
  stdio: 'inherit',
  env,
});
