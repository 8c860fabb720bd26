#!/usr/bin/env node
// The packaging matrix: a merchant's first day with the packed package, on every Node major
// pesakit supports. For the Node running this script (20) and for Node 22 and 24 from the npm
// registry (`node@22`, `node@24` ship the binary), it installs the `npm pack` tarball into a
// project, then runs scripts/matrix/first-day.mjs from a CommonJS project (`require`, no
// top-level await) and from an ES module project (`import`): client calls, the receiver in
// Express, a reconciler pass, a bulk airtime purchase, the SQLite and PostgreSQL stores,
// `verifyStore` and the verifier (pesakit/testing), and the clear refusal of an .xlsx while the
// optional exceljs is not installed (SDK, sandbox route, CLI). Then every example shipped in the
// tarball, ES module and CommonJS, runs against a sandbox (scripts/matrix/examples.mjs). Only
// this runs on Node 22 and 24; the vitest suite runs once, on Node 20.
//
// The projects live outside the clone, in PESAKIT_MATRIX_CACHE (default
// /var/cache/pesakit-matrix), one per Node major, so a warm run reinstalls only the tarball.
// Node 20 gets better-sqlite3 12 (13 needs Node 22), compiled per Node ABI — for the Node running
// this script, the clone's own build is reused; Node 22 and 24 get 13, whose N-API prebuilt
// binary serves both (12 aborts under Node 24 when a Database is collected).
//
// PostgreSQL: DATABASE_URL if set, else a throwaway cluster started by the suite's own helper
// (test/helpers/postgres-global-setup.ts) — a missing server fails the run, as in the suite.
//
// Needs dist/ (`npm run build`). Prints one line per feature and run, then `N passed, N failed`.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(root, 'scripts', 'matrix');
const cache = process.env.PESAKIT_MATRIX_CACHE ?? '/var/cache/pesakit-matrix';
const npmCli = join(
  execFileSync('npm', ['root', '--global']).toString().trim(),
  'npm',
  'bin',
  'npm-cli.js',
);
const started = Date.now();
const results = [];

if (!existsSync(join(root, 'dist', 'index.cjs'))) {
  console.error('package-matrix: dist/ is missing; run `npm run build` first.');
  process.exit(1);
}
mkdirSync(cache, { recursive: true });
const tarball = pack();
const xlsxFile = await writeWorkbook();
const postgres = await startPostgres();
try {
  const ownMajor = Number(process.versions.node.split('.')[0]);
  for (const major of [ownMajor, 22, 24]) {
    const node = major === ownMajor ? process.execPath : installNode(major);
    const project = prepareProject(major, node);
    for (const system of ['cjs', 'esm']) {
      runFirstDay(`node${major} ${system}`, node, project, system, postgres.url);
    }
    runExamples(`node${major}`, node, project);
  }
} finally {
  await postgres.stop();
}

const failed = results.filter((result) => !result.ok).length;
console.log(`\npackage-matrix: ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

/** `npm pack` of the built package, into the cache (replacing the last run's). */
function pack() {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', cache], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ filename }] = JSON.parse(output.toString());
  return join(cache, filename);
}

/** A real .xlsx (written with the clone's exceljs, a dev dependency) for the refusal checks. */
async function writeWorkbook() {
  const file = join(cache, 'staff.xlsx');
  if (existsSync(file)) return file;
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Staff');
  sheet.addRow(['msisdn', 'amount', 'reference']);
  sheet.addRow(['255754000003', 1000, 'staff-3']);
  await workbook.xlsx.writeFile(file);
  return file;
}

async function startPostgres() {
  const { register } = await import('tsx/esm/api');
  register();
  const { default: setup } = await import('../test/helpers/postgres-global-setup.ts');
  let url;
  const stop = await setup({ provide: (_key, value) => (url = value) });
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS pesakit_matrix');
  await admin.query('CREATE DATABASE pesakit_matrix');
  await admin.end();
  const matrixUrl = new URL(url);
  matrixUrl.pathname = '/pesakit_matrix';
  return { url: matrixUrl.href, stop };
}

/** Node `major` from the npm registry, installed once into the cache. */
function installNode(major) {
  const prefix = join(cache, `node${major}`, 'runtime');
  const binary = join(
    prefix,
    'node_modules',
    'node',
    'node_modules',
    `node-${process.platform}-${process.arch}`,
    'bin',
    'node',
  );
  if (!existsSync(binary)) {
    console.log(`[matrix] installing node@${major} from the npm registry`);
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'package.json'), '{"private":true}\n');
    npm(process.execPath, prefix, ['install', `node@${major}`]);
  }
  return binary;
}

/**
 * The project for one Node major: its dependencies installed with that Node (so better-sqlite3
 * matches its ABI), then the tarball; a CommonJS and an ES module package inside it.
 */
function prepareProject(major, node) {
  const project = join(cache, `node${major}`, 'project');
  mkdirSync(project, { recursive: true });
  const manifest = {
    private: true,
    dependencies: {
      'better-sqlite3': major >= 22 ? '^13.0.0' : '^12.0.0',
      express: '^5.0.0',
      kysely: '^0.28.0',
      pg: '^8.11.0',
      // The TypeScript examples run as their READMEs say, through tsx.
      tsx: '^4.23.15',
    },
    allowScripts: { 'better-sqlite3': true },
  };
  const manifestFile = join(project, 'package.json');
  const installed = join(project, 'node_modules', '.matrix-dependencies.json');
  const wanted = JSON.stringify(manifest);
  if (!existsSync(installed) || readFileSync(installed, 'utf8') !== wanted) {
    console.log(`[matrix] node${major}: installing the dependencies`);
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    const reuse = node === process.execPath;
    npm(node, project, ['install', ...(reuse ? ['--ignore-scripts'] : [])]);
    if (reuse) reuseBuiltBetterSqlite3(node, project);
    writeFileSync(installed, wanted);
  }
  // Only the tarball on a warm run; an unchanged version with new contents is replaced too.
  rmSync(join(project, 'node_modules', 'pesakit'), { recursive: true, force: true });
  const warnings = npm(node, project, ['install', tarball]);
  for (const warning of warnings) console.log(`[matrix] node${major}: ${warning}`);
  for (const [system, type, main] of [
    ['cjs', 'commonjs', 'main.cjs'],
    ['esm', 'module', 'main.mjs'],
  ]) {
    const directory = join(project, system);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'package.json'), `${JSON.stringify({ type })}\n`);
    copyFileSync(join(here, main), join(directory, 'index.js'));
    copyFileSync(join(here, 'examples.mjs'), join(directory, 'examples.mjs'));
    const body = readFileSync(join(here, 'first-day.mjs'), 'utf8');
    writeFileSync(
      join(directory, 'first-day.js'),
      system === 'esm'
        ? body
        : `${body.replace('export async function firstDay', 'async function firstDay')}\nmodule.exports = { firstDay };\n`,
    );
  }
  return project;
}

/**
 * On the Node running this script, the clone's better-sqlite3 is already compiled for it: when
 * the project got the same version, its build is copied instead of compiled again (minutes on
 * two cores where no prebuilt binary can be downloaded). Any other version is compiled.
 */
function reuseBuiltBetterSqlite3(node, project) {
  const built = join(root, 'node_modules', 'better-sqlite3');
  const target = join(project, 'node_modules', 'better-sqlite3');
  const version = (directory) => JSON.parse(readFileSync(join(directory, 'package.json'))).version;
  if (existsSync(join(built, 'build', 'Release')) && version(built) === version(target)) {
    cpSync(join(built, 'build'), join(target, 'build'), { recursive: true });
  } else {
    npm(node, project, ['rebuild', 'better-sqlite3']);
  }
}

/** Runs npm's own CLI on `node`; returns the warnings it printed. */
function npm(node, cwd, args) {
  const run = spawnSync(node, [npmCli, ...args, '--no-audit', '--no-fund'], {
    cwd,
    encoding: 'utf8',
    // JOBS: node-gyp compiles better-sqlite3 on every core.
    env: { ...process.env, JOBS: 'max', PATH: `${dirname(node)}:${process.env.PATH}` },
  });
  if (run.status !== 0) {
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${run.stdout}${run.stderr}`);
  }
  return run.stderr.split('\n').filter((line) => line.startsWith('npm warn'));
}

/** Every example in the tarball (ES module and CommonJS) against a sandbox: scripts/matrix/examples.mjs. */
function runExamples(label, node, project) {
  const directory = join(project, 'esm');
  const run = spawnSync(node, ['examples.mjs', JSON.stringify({ dir: directory })], {
    cwd: directory,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` },
  });
  report(label, run);
}

function runFirstDay(label, node, project, system, postgresUrl) {
  const directory = join(project, system);
  const given = {
    dir: directory,
    xlsxFile,
    cliPath: join(project, 'node_modules', 'pesakit', 'dist', 'cli', 'index.js'),
    postgresUrl,
  };
  const run = spawnSync(node, ['index.js', JSON.stringify(given)], {
    cwd: directory,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH}` },
  });
  report(label, run);
}

/** One result per JSON line a run printed; a run that printed none, or failed, is a failure. */
function report(label, run) {
  const reports = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  if (run.status !== 0 || reports.length === 0) {
    reports.push({ feature: 'the run', ok: false, detail: `exit ${run.status}\n${run.stderr}` });
  }
  for (const { feature, ok, detail } of reports) {
    results.push({ ok });
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${label.padEnd(10)} ${feature}`);
    if (!ok) console.log(`     ${String(detail).split('\n').join('\n     ')}`);
  }
}
