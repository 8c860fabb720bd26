// Runs the benchmarks one after another, each in its own Node process so that one's heap, JIT
// state and open handles cannot colour the next, then prints one Markdown table of every
// figure (the `BENCH {json}` lines they print) to paste into docs/benchmarks.md.
// With no arguments it runs every bench/*.mjs but this one; arguments name the files instead.
// Flags (`--quick`) are passed on. Exits non-zero when a benchmark crashed or ran past
// BENCH_TIMEOUT_MINUTES (default 15); a figure below its floor is reported, not failed.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const limitMs = Number(process.env.BENCH_TIMEOUT_MINUTES ?? 15) * 60_000;
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = (
  requested.length > 0
    ? requested.map((name) => name.replace(/^bench\//, ''))
    : readdirSync(benchDir).filter((name) => name.endsWith('.mjs') && name !== 'run.mjs')
).sort();

/** Runs one benchmark, echoing its output; resolves with its rows and whether it succeeded. */
function runOne(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [benchDir + file, ...flags], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const rows = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('BENCH ')) rows.push(JSON.parse(line.slice(6)));
      else console.log(line);
    });
    const timer = setTimeout(() => {
      console.error(`${file}: still running after ${limitMs / 60_000} min, killed`);
      child.kill('SIGKILL');
    }, limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ rows, ok: code === 0 && signal === null });
    });
  });
}

const started = Date.now();
const machine = `${cpus().length} cores, Node ${process.version}, ${process.platform}`;
console.log(`pesakit benchmarks — ${machine}, ${new Date().toISOString()}`);
const table = [];
const failed = [];
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const { rows, ok } = await runOne(file);
  table.push(...rows);
  if (!ok) failed.push(file);
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(`\n${machine}; ${minutes} min${flags.length > 0 ? ` (${flags.join(' ')})` : ''}\n`);
console.log('| benchmark | figure | baseline (same run) | ratio | floor | met? |');
console.log('|---|---|---|---|---|---|');
for (const row of table) {
  const cells = [row.benchmark, row.figure, row.baseline, row.ratio, row.floor, row.met];
  console.log(`| ${cells.join(' | ')} |`);
}
if (failed.length > 0) {
  console.error(`\ncrashed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
