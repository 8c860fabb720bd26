// One server under load for bench/sandbox-throughput.mjs, in its own process:
//
//   node bench/lib/sandbox-throughput-server.mjs sandbox   # the built sandbox (dist/sandbox)
//   node bench/lib/sandbox-throughput-server.mjs bare      # a bare Fastify POST route
//   node bench/lib/sandbox-throughput-server.mjs contract  # the bare route + what the API contract adds
//
// It prints `listening on <url>` when ready. Spawned with an IPC channel, it answers the message
// `'cpu'` with its own `process.cpuUsage()`, so that the benchmark can charge each server only
// for the CPU it spent itself (the load generator runs in yet another process). The `contract`
// server also takes `{ answer }` over IPC: the JSON it answers from then on (acknowledged with
// `{ answered: true }`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { BENCH_SEED } from './sandbox-throughput-seed.mjs';
import { API_SECURITY_HEADERS } from './sandbox-variant-server.mjs';

async function startSandbox() {
  // BENCH_SANDBOX_MODULE: another build of the sandbox entry, to compare two versions.
  const module =
    process.env.BENCH_SANDBOX_MODULE ??
    fileURLToPath(new URL('../../dist/sandbox/index.js', import.meta.url));
  if (!existsSync(module))
    throw new Error(`${module} is missing: build first (npm run bench builds).`);
  const { createSandbox } = await import(module);
  const sandbox = await createSandbox({
    seed: BENCH_SEED,
    // Nothing settles by itself: the engine's own callbacks would be load the client never sent.
    autoSettle: false,
    // Generous, so that a run never meets `sandbox_full`; the benchmark resets between runs.
    recordLimit: 1_000_000,
  });
  const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => sandbox.close() };
}

async function startBare() {
  // Fastify's defaults: its own JSON parser and serializer, no hooks, no plugins.
  const app = Fastify();
  app.post('/bare', async (request) => ({ message: 'ok', received: request.body }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${url}/bare`, close: () => app.close() };
}

/**
 * The bare route plus only what the platform's API contract makes every sandbox answer carry:
 * an `x-request-id`, the five API security headers (src/sandbox/http/security-headers.ts) and
 * the route's real answer (set over IPC from the sandbox's own answer to the same request: the
 * Laravel-shaped body, about 400 bytes for status, against the bare route's 60). Fastify's
 * defaults otherwise. Against it, the sandbox's ratio is what its own code costs: the
 * auth, validation, lookup and view (docs/benchmarks.md, sandbox-throughput, stop 16 and 17).
 */
async function startContract() {
  const app = Fastify();
  let answer = { message: 'no answer set yet' };
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.headers(API_SECURITY_HEADERS);
    done(null, payload);
  });
  // Any path: the benchmark sends it the sandbox's own request, URL and bearer header included.
  app.post('/*', async () => answer);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const setAnswer = (value) => {
    answer = value;
  };
  return { url, close: () => app.close(), setAnswer };
}

const starters = { sandbox: startSandbox, bare: startBare, contract: startContract };
const mode = process.argv[2];
if (!Object.hasOwn(starters, mode))
  throw new Error('usage: sandbox-throughput-server.mjs sandbox|bare|contract');
const server = await starters[mode]();

process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (typeof message === 'object' && message !== null && 'answer' in message && server.setAnswer) {
    server.setAnswer(message.answer);
    process.send?.({ answered: true });
  }
});
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('disconnect', stop);
console.log(`listening on ${server.url}`);
