// Runs the benchmarks one after another, each in its own Node process so that one's heap,
// JIT state and open handles cannot colour the next. With no arguments it runs every
// bench/*.mjs (except this file); arguments name the files to run instead.
// Flags (`--quick`) are passed on to every benchmark; those that know them use them.
// Exits non-zero only when a benchmark crashed or hung (ran past its time limit: 10 minutes,
// more for the few listed in TIMEOUT_MINUTES, or BENCH_TIMEOUT_MINUTES for all): there are no
// speed thresholds here.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
// Generous: it only exists so that a hung benchmark cannot hang `npm run bench` forever.
const DEFAULT_TIMEOUT_MINUTES = 10;
// Benchmarks that legitimately run longer, in minutes. reconciler-memory.mjs at its full size
// (100,000 records) creates every record in the sandbox and then checks each one: about 10
// minutes on a quiet 2-core machine, several times that on a busy one.
const TIMEOUT_MINUTES = { 'reconciler-memory.mjs': 90 };
// BENCH_TIMEOUT_MINUTES overrides the limit of every benchmark (e.g. a slower machine).
const overrideMinutes = Number(process.env.BENCH_TIMEOUT_MINUTES);

/** How long `file` may run before it counts as hung. */
function timeoutMs(file) {
  const minutes =
    overrideMinutes > 0
      ? overrideMinutes
      : (TIMEOUT_MINUTES[basename(file)] ?? DEFAULT_TIMEOUT_MINUTES);
  return minutes * 60_000;
}

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
    const limit = timeoutMs(file);
    const timer = setTimeout(() => {
      console.error(`${basename(file)}: still running after ${limit / 60_000} min, killed`);
      child.kill('SIGKILL');
    }, limit);
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
