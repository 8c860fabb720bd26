// The sandbox: start-up and throughput, each against a bare server measured the same way.
// - start-up: `pesakit sandbox` (the built CLI) from spawn to its ready line, against a bare
//   node:http server spawned the same way (Node's start, a bind on port 0, the same ready line).
//   Runs alternate, so drift in the machine's load hits both alike. Floor: under 2 s (median).
// - throughput: requests a second on `transaction/status` (bearer auth, validation, lookup, the
//   platform's answer) against a bare Fastify POST route answering JSON, both in processes of
//   their own, autocannon in this one; rounds alternate; the figure is the median of the rounds.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import * as lib from './lib/common.mjs';

const { median, quick, report } = lib;
const RUNS = quick ? 2 : 10;
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
      if (readyMs === undefined && stdout.includes('listening on http://')) {
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
const [startUp, bareStartUp] = [median(samples.sandbox), median(samples.bare)];
report({
  benchmark: 'Sandbox start-up (`pesakit sandbox`, spawn to ready)',
  figure: `${startUp.toFixed(0)} ms`,
  baseline: `bare node:http ${bareStartUp.toFixed(0)} ms`,
  ratio: startUp / bareStartUp,
  floor: '< 2 s',
  met: startUp < 2000,
});

const [ROUNDS, SECONDS, CONNECTIONS] = [quick ? 1 : 3, quick ? 1 : 5, 32];
const sandbox = await lib.startSandbox({ accounts: [{ product: 'collection', ...lib.account }] });
const bare = await lib.spawnUntilListening([
  fileURLToPath(new URL('lib/bare-fastify.mjs', import.meta.url)),
]);
try {
  const token = await lib.collectionToken(sandbox.url);
  const payment = await lib.rawPost(sandbox.url + lib.collectionPaths.initiateMno, token, {
    amount: 15000,
    msisdn: '255754123998',
  });
  const body = JSON.stringify({ ref_id: payment.controlNumber });
  const load = (url, duration) =>
    autocannon({
      url: url + lib.collectionPaths.status,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
  if (!quick) for (const server of [bare, sandbox]) await load(server.url, 2);
  const rates = { bare: [], sandbox: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, server] of Object.entries({ bare, sandbox })) {
      const result = await load(server.url, SECONDS);
      if (result.non2xx + result.errors > 0) throw new Error(`${name}: failed requests`);
      rates[name].push(result.requests.average);
    }
  }
  const [served, baseline] = [median(rates.sandbox), median(rates.bare)];
  report({
    benchmark: `Sandbox throughput, \`transaction/status\`, ${CONNECTIONS} connections`,
    figure: `${served.toFixed(0)} req/s`,
    baseline: `bare Fastify ${baseline.toFixed(0)} req/s`,
    ratio: served / baseline,
  });
} finally {
  await sandbox.close();
  await bare.close();
}
