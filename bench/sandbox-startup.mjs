// How long `pesakit sandbox` takes from spawn to ready, against a bare node:http server spawned
// the same way in the same run. The issue promises "under two seconds"; this prints where the
// median stands against that, but never fails on it: performance is reported, not asserted.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ms, printTable, summarize } from './lib/stats.mjs';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 10);
const PROMISE_MS = 2000;
// A run that has not printed its ready line by then has hung; fail loudly rather than wait.
const RUN_TIMEOUT_MS = 20_000;
const READY = 'listening on http://';

const cli = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (npm run bench builds).`);

// The baseline does the least any Node HTTP server must do: start Node, bind port 0, print the
// same ready line, close on SIGTERM. What the sandbox adds on top is its own start-up cost.
const bareServer = `
const server = require('node:http').createServer((req, res) => res.end());
server.listen(0, '127.0.0.1', () => {
  console.log('bare server listening on http://127.0.0.1:' + server.address().port);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
`;

const subjects = {
  baseline: ['-e', bareServer],
  sandbox: [cli, 'sandbox', '--port', '0'],
};

/** Spawns `node ...args`, times it to the ready line, then SIGTERMs it and times the exit. */
function startAndStop(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let readyMs;
    let stopAt;
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (readyMs === undefined && stdout.includes(READY)) {
        readyMs = performance.now() - started;
        stopAt = performance.now();
        child.kill('SIGTERM');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (readyMs === undefined) {
        reject(new Error(`exited (${code ?? signal}) before "${READY}"; stderr: ${stderr}`));
      } else if (code === 0 || signal === 'SIGTERM') {
        // Dying of the signal itself (no handler installed yet) is reported, not a crash.
        resolve({ readyMs, stopMs: performance.now() - stopAt, clean: code === 0 });
      } else {
        reject(new Error(`bad exit after SIGTERM (${code ?? signal}); stderr: ${stderr}`));
      }
    });
  });
}

// One warm-up of each fills the OS file cache, so the first measured run is not an outlier.
for (const args of Object.values(subjects)) await startAndStop(args);

// Interleaved, so that drift in machine load during the run hits both subjects alike.
const samples = { baseline: [], sandbox: [] };
for (let i = 0; i < RUNS; i++) {
  for (const [name, args] of Object.entries(subjects)) samples[name].push(await startAndStop(args));
}

const ready = {};
const rows = Object.entries(samples).map(([name, runs]) => {
  ready[name] = summarize(runs.map((run) => run.readyMs));
  const clean = runs.filter((run) => run.clean);
  const stop = clean.length > 0 ? ms(summarize(clean.map((run) => run.stopMs)).median) : 'n/a';
  const { median, p95, min } = ready[name];
  return [name, ms(median), ms(p95), ms(min), stop, `${clean.length}/${runs.length}`];
});

console.log(`sandbox start-up: spawn to "${READY}", ${RUNS} runs each after 1 warm-up`);
console.log(`(p95 is nearest-rank: the ${Math.ceil(0.95 * RUNS)}th fastest of ${RUNS})\n`);
printTable(
  ['subject', 'ready median', 'ready p95', 'ready min', 'SIGTERM→exit median', 'exit 0'],
  rows,
);
const ratio = ready.sandbox.median / ready.baseline.median;
const verdict = ready.sandbox.median < PROMISE_MS ? 'within' : 'over';
console.log(`\nratio sandbox / baseline (median): ${ratio.toFixed(2)}x`);
console.log(
  `sandbox median ${ms(ready.sandbox.median)}: ${verdict} the 2 s promise (informational)`,
);
for (const [name, runs] of Object.entries(samples)) {
  const killed = runs.filter((run) => !run.clean).length;
  if (killed === 0) continue;
  console.log(
    `note: ${killed}/${runs.length} ${name} runs died of the SIGTERM sent right after the ready` +
      ' line instead of closing and exiting 0: the signal arrived before a handler was installed',
  );
}
