// One server under load for bench/sandbox-throughput.mjs, in its own process:
//
//   node bench/lib/sandbox-throughput-server.mjs sandbox   # the built sandbox (dist/sandbox)
//   node bench/lib/sandbox-throughput-server.mjs bare      # a bare Fastify POST route
//
// It prints `listening on <url>` when ready. Spawned with an IPC channel, it answers the message
// `'cpu'` with its own `process.cpuUsage()`, so that the benchmark can charge each server only
// for the CPU it spent itself (the load generator runs in yet another process).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { BENCH_SEED } from './sandbox-throughput-seed.mjs';

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

const mode = process.argv[2];
if (mode !== 'sandbox' && mode !== 'bare')
  throw new Error('usage: sandbox-throughput-server.mjs sandbox|bare');
const server = mode === 'sandbox' ? await startSandbox() : await startBare();

process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('disconnect', stop);
console.log(`listening on ${server.url}`);
