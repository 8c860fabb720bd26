// The sandbox's own µs per route, in one process and without sockets: what runs between
// Fastify's `onRequest` and the answer's `writeHead` that a bare Fastify route does not run.
// Each request is made with `app.inject()` (light-my-request: the same fake socket for both
// apps), so the difference between a sandbox route and the bare route is the sandbox's own work
// (hooks, auth, parse, validation, the handler, the headers, the serialisation).
//
//   node bench/lib/sandbox-throughput-micro.mjs [<sandbox module> ...]
//
// Every module named (an esbuild bundle of src/sandbox/index.ts, or dist/sandbox/index.js by
// default) is measured against the same bare app, alternated round by round: CPU µs per request
// (process.cpuUsage, user + system), median of the rounds after the first (warm-up).
// Knobs: BENCH_MICRO_ROUNDS (9), BENCH_MICRO_REQUESTS (2000 per round),
// BENCH_SANDBOX_SUBJECTS (status,initiate,payout).
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { BENCH_SEED } from './sandbox-throughput-seed.mjs';

const rounds = Number(process.env.BENCH_MICRO_ROUNDS ?? 9);
const requests = Number(process.env.BENCH_MICRO_REQUESTS ?? 2000);
const subjects = (process.env.BENCH_SANDBOX_SUBJECTS ?? 'status,initiate,payout').split(',');
const modules = process.argv.slice(2);
if (modules.length === 0) {
  modules.push(fileURLToPath(new URL('../../dist/sandbox/index.js', import.meta.url)));
}
const [collection, disbursement] = BENCH_SEED.accounts;

async function post(app, url, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await app.inject({
    method: 'POST',
    url,
    headers,
    payload: JSON.stringify(body),
  });
  if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
  return response.json();
}

/** One prepared request per subject: what the throughput benchmark sends (see its prepare()). */
async function prepare(app, subject) {
  const credentials = (account) => ({ email: account.email, password: account.password });
  if (subject === 'payout') {
    const { token } = await post(app, '/api/sandbox/disbursement/login', credentials(disbursement));
    return {
      url: '/api/sandbox/disbursement/payment',
      token,
      body: { msisdn: '255754123456', amount: 1000, name: 'Bench Payee' },
    };
  }
  const { token } = await post(app, '/api/sandbox/login', credentials(collection));
  const initiate = { amount: 1500, msisdn: '255754000998', description: 'bench order' };
  if (subject === 'initiate')
    return { url: '/api/sandbox/initiate-payment/mno/', token, body: initiate };
  const { controlNumber } = await post(app, '/api/sandbox/initiate-payment/mno/', initiate, token);
  return { url: '/api/sandbox/transaction/status', token, body: { ref_id: controlNumber } };
}

const bare = Fastify();
bare.post('/bare', async (request) => ({ message: 'ok', received: request.body }));
await bare.ready();

const sandboxes = [];
for (const module of modules) {
  const { createSandbox } = await import(module);
  const sandbox = await createSandbox({
    seed: BENCH_SEED,
    autoSettle: false,
    recordLimit: 1_000_000,
  });
  await sandbox.app.ready();
  sandboxes.push({ name: module.split('/').pop(), sandbox });
}

/** CPU µs per request over `requests` sequential injects (each awaited, as a client would). */
async function measure(app, options) {
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const response = await app.inject(options);
    if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}`);
  }
  const spent = process.cpuUsage(start);
  return (spent.user + spent.system) / requests;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

console.log(
  `sandbox micro: in-process inject, ${rounds} rounds of ${requests} requests (first dropped)`,
);
for (const subject of subjects) {
  const bareOptions = {
    method: 'POST',
    url: '/bare',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ ref_id: '990000000001' }),
  };
  const targets = [];
  for (const { name, sandbox } of sandboxes) {
    await sandbox.reset();
    const { url, token, body } = await prepare(sandbox.app, subject);
    targets.push({
      name,
      app: sandbox.app,
      options: {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        payload: JSON.stringify(body),
      },
      samples: [],
    });
  }
  const bareSamples = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    bareSamples.push(await measure(bare, bareOptions));
    for (const target of order) target.samples.push(await measure(target.app, target.options));
  }
  const bareMedian = median(bareSamples.slice(1));
  const parts = targets.map((t) => {
    const m = median(t.samples.slice(1));
    return `${t.name} ${m.toFixed(1)} µs (+${(m - bareMedian).toFixed(1)})`;
  });
  console.log(`${subject}: bare ${bareMedian.toFixed(1)} µs; ${parts.join('; ')}`);
}
for (const { sandbox } of sandboxes) await sandbox.close();
await bare.close();
