// The app under load for bench/callback-ack.mjs, in its own process so that the load generator
// does not share its event loop. Usage: node callback-ack-app.mjs <express|fastify> <bare|receiver>
// Prints `listening on <url>` once ready; exits on SIGTERM.
// `GET /__bench/cpu` answers this process's `process.cpuUsage()` (µs): the load generator reads
// it before and after a run to get the server's CPU time per request, which is far steadier on
// a busy machine than requests per second. It also answers how long this process's event loop
// was held up since the last read (`loopP99Ms`, `loopMaxMs`: perf_hooks' monitorEventLoopDelay,
// reset on each read): what every request waiting on this process waits behind.
//
// `bare`: one POST route of the same framework that answers 200 `{"received":true}` and does
// nothing else — the least a callback route can do. `receiver`: pesakit's middleware over a
// receiver with a SQLite inbox in a fresh file (WAL): every callback is validated, stored and
// deduplicated before the 200. The receiver is not started: this measures the acknowledgement
// path alone, which is what the platform waits on; processing happens after the answer.
// `receiver-normal`: the same, on a database the app opened itself with
// `synchronous = NORMAL` (WAL): commits survive a crash of the process but not of the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [framework, subject] = process.argv.slice(2);
// BENCH_ACK_DIST: another build's dist/ (absolute path), to alternate an old and a new build.
const dist = process.env.BENCH_ACK_DIST
  ? pathToFileURL(`${process.env.BENCH_ACK_DIST.replace(/\/+$/, '')}/`)
  : new URL('../../dist/', import.meta.url);
const directory = mkdtempSync(join(tmpdir(), 'pesakit-bench-ack-'));
let store;
let receiver;
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();

/** CPU time so far, and the event loop's delays since the last call. */
function benchStats() {
  const stats = {
    ...process.cpuUsage(),
    loopP99Ms: loopDelay.percentile(99) / 1e6,
    loopMaxMs: loopDelay.max / 1e6,
  };
  loopDelay.reset();
  return stats;
}

async function makeReceiver() {
  const { Pesakit } = await import(new URL('index.js', dist).href);
  const { SqliteReferenceStore } = await import(new URL('sqlite.js', dist).href);
  const file = join(directory, 'store.sqlite');
  if (subject === 'receiver-normal') {
    const { default: Database } = await import('better-sqlite3');
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    store = await SqliteReferenceStore.open(database);
  } else {
    // BENCH_ACK_GATHER_MS: the store's `inbox.gatherMs` (unset: the build's default).
    const gather = process.env.BENCH_ACK_GATHER_MS;
    store = await SqliteReferenceStore.open(
      file,
      gather === undefined ? {} : { inbox: { gatherMs: Number(gather) } },
    );
  }
  // No platform is called on the acknowledgement path; the URL only has to be well formed.
  const pesakit = new Pesakit({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:9', store });
  return pesakit.createCallbackReceiver({ onPaid() {}, onFailed() {}, onReview() {} });
}

async function expressApp() {
  const { default: express } = await import('express');
  const app = express();
  app.get('/__bench/cpu', (_req, res) => {
    res.status(200).json(benchStats());
  });
  if (subject === 'bare') {
    app.post('/pesakit/callback', (_req, res) => {
      res.status(200).json({ received: true, duplicate: false });
    });
  } else {
    const { pesakitExpress } = await import(new URL('express.js', dist).href);
    receiver = await makeReceiver();
    app.use('/pesakit', pesakitExpress(receiver));
  }
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() });
    });
  });
}

async function fastifyApp() {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  app.get('/__bench/cpu', async () => benchStats());
  if (subject === 'bare') {
    app.post('/pesakit/callback', async () => ({ received: true, duplicate: false }));
  } else {
    const { pesakitFastify } = await import(new URL('fastify.js', dist).href);
    receiver = await makeReceiver();
    await app.register(pesakitFastify, { receiver, prefix: '/pesakit' });
  }
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

const app = framework === 'fastify' ? await fastifyApp() : await expressApp();
console.log(`listening on ${app.url}`);
process.on('SIGTERM', async () => {
  await app.close();
  await receiver?.close();
  await store?.close();
  rmSync(directory, { recursive: true, force: true });
  process.exit(0);
});
