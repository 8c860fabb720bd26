// Runs the benchmarks one after another, each in its own Node process so that one's heap,
// JIT state and open handles cannot colour the next. With no arguments it runs every
// bench/*.mjs (except this file); arguments name the files to run instead.
// Flags (`--quick`) are passed on to every benchmark; those that know them use them.
// Exits non-zero only when a benchmark crashed or hung: there are no speed thresholds here.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
// Generous: it only exists so that a hung benchmark cannot hang `npm run bench` forever.
const BENCH_TIMEOUT_MS = 10 * 60_000;

const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = (
  requested.length > 0
    ? requested
    : readdirSync(benchDir).filter((name) => name.endsWith('.mjs') && name !== 'run.mjs')
).map((name) => fileURLToPath(new URL(basename(name), new URL('.', import.meta.url))));
files.sort();

function runOne(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...flags], { stdio: 'inherit' });
    const timer = setTimeout(() => {
      console.error(`${basename(file)}: still running after ${BENCH_TIMEOUT_MS} ms, killed`);
      child.kill('SIGKILL');
    }, BENCH_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      console.error(`${basename(file)}: ${error.message}`);
      resolve(false);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 && signal === null);
    });
  });
}

console.log(`pesakit benchmarks — node ${process.version}, ${new Date().toISOString()}`);
const failed = [];
for (const file of files) {
  console.log(`\n=== ${basename(file)} ===`);
  if (!(await runOne(file))) failed.push(basename(file));
}
if (failed.length > 0) {
  console.error(`\ncrashed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
