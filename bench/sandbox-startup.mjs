// How long `pesakit sandbox` (the built CLI) takes from spawn to its ready line, against a bare
// node:http server spawned the same way, in the same run: Node's start, a bind on port 0 and
// the same ready line. Runs alternate, so drift in the machine's load hits both alike.
// Floor: ready in under 2 seconds (median).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, quick, report } from './lib/common.mjs';

const RUNS = quick ? 2 : 10;
const FLOOR_MS = 2000;
const READY = 'listening on http://';
const cli = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
if (!existsSync(cli)) throw new Error(`${cli} is missing: build first (npm run bench builds).`);

const bareServer = `
const server = require('node:http').createServer((req, res) => res.end());
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
`;
const subjects = { bare: ['-e', bareServer], sandbox: [cli, 'sandbox', '--port', '0'] };

/** Spawns `node ...args`; resolves with the milliseconds to its ready line, once it has exited. */
function timeToReady(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    let readyMs;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (readyMs === undefined && stdout.includes(READY)) {
        readyMs = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (readyMs === undefined)
        reject(new Error(`${args[0]} exited (${code ?? signal}) before ready`));
      else resolve(readyMs);
    });
  });
}

// One warm-up each fills the file cache, so the first measured run is not an outlier.
for (const args of Object.values(subjects)) await timeToReady(args);
const samples = { bare: [], sandbox: [] };
for (let i = 0; i < RUNS; i++) {
  for (const [name, args] of Object.entries(subjects)) samples[name].push(await timeToReady(args));
}
const sandbox = median(samples.sandbox);
const bare = median(samples.bare);
report({
  benchmark: 'Sandbox start-up (`pesakit sandbox`, spawn to ready)',
  figure: `${sandbox.toFixed(0)} ms`,
  baseline: `bare node:http ${bare.toFixed(0)} ms`,
  ratio: sandbox / bare,
  floor: '< 2 s',
  met: sandbox < FLOOR_MS,
});
