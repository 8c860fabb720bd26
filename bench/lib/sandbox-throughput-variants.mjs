// Which per-request paths make up the sandbox's cost over a bare Fastify route: instructions per
// request, counted by valgrind's callgrind, for each step from the benchmark's bare route to the
// sandbox (bench/lib/sandbox-variant-server.mjs lists the steps). Instruction counts do not
// depend on the machine's load, unlike CPU time on a shared 2-core VM.
//
//   node bench/lib/sandbox-throughput-variants.mjs [variant ...]    # default: every variant
//
// Per variant: the server starts under callgrind (--smc-check=all-non-file, for V8's JIT), a
// keep-alive client in this process sends BENCH_VARIANTS_WARMUP requests one after another (the
// JIT tiers up: counts fall for the first few thousand), then BENCH_VARIANTS_BATCHES batches of
// BENCH_VARIANTS_REQUESTS requests, each between `callgrind_control -z` (zero) and `-d` (dump):
// the dump's total over the batch size is one figure, start-up and warm-up excluded. Each batch
// is printed (their spread is the repeatability). A batch that holds a major GC reads up to 2x
// (the same batch number in every variant, as the heap fills alike): the step between variants
// is taken between their lowest batches, which such a pause did not hit.
// Counts are user-space instructions of every thread of the server (V8's compiler and GC
// threads included); the kernel's share (the socket write, epoll) is not in them.
// BENCH_VARIANTS_PARALLEL (1): variants measured at once (each is one core's worth of valgrind).
// Passed on to the server: BENCH_VARIANT_DROP (sandbox options left out of `options` and later
// steps) and BENCH_VARIANT_HOOK (`empty`, `id`, `headers`: parts of the `hook` step).
// Needs valgrind, and a built dist/ for the `sandbox` variant (or BENCH_SANDBOX_MODULE).
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { VARIANTS } from './sandbox-variant-server.mjs';

const run = promisify(execFile);
const warmup = Number(process.env.BENCH_VARIANTS_WARMUP ?? 6000);
const batches = Number(process.env.BENCH_VARIANTS_BATCHES ?? 4);
const batchSize = Number(process.env.BENCH_VARIANTS_REQUESTS ?? 500);
const parallel = Number(process.env.BENCH_VARIANTS_PARALLEL ?? 1);
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : VARIANTS;
const serverFile = fileURLToPath(new URL('sandbox-variant-server.mjs', import.meta.url));
const outDir = await mkdtemp(join(tmpdir(), 'sandbox-variants-'));

async function start(variant) {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${outDir}/${variant}.%p`,
      process.execPath,
      serverFile,
      variant,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('listening ')) return { child, target: JSON.parse(line.slice(10)) };
  }
  throw new Error(`${variant}: the server exited before it was ready`);
}

function post(target, agent) {
  const headers = { 'content-type': 'application/json' };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  return new Promise((resolve, reject) => {
    const req = request(target.url, { method: 'POST', headers, agent }, (response) => {
      response.resume();
      response.once('end', () =>
        response.statusCode === 200
          ? resolve()
          : reject(new Error(`${target.url} answered ${response.statusCode}`)),
      );
    });
    req.once('error', reject);
    req.end(target.body);
  });
}

/** `count` requests one after another on one kept-alive connection. */
async function send(target, agent, count) {
  for (let i = 0; i < count; i++) await post(target, agent);
}

/** The total of the newest dump of `pid`. */
async function lastDumpTotal(variant, pid) {
  const files = (await readdir(outDir)).filter((name) => name.startsWith(`${variant}.${pid}.`));
  const newest = files
    .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()))
    .pop();
  const text = await readFile(join(outDir, newest), 'utf8');
  const match = /^summary: (\d+)/m.exec(text) ?? /^totals: (\d+)/m.exec(text);
  if (!match) throw new Error(`${newest}: no summary line`);
  return Number(match[1]);
}

async function measure(variant) {
  const { child, target } = await start(variant);
  const dispatcher = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await send(target, dispatcher, warmup);
    const perRequest = [];
    for (let b = 0; b < batches; b++) {
      await run('callgrind_control', ['-z', String(child.pid)]);
      await send(target, dispatcher, batchSize);
      await run('callgrind_control', ['-d', String(child.pid)]);
      perRequest.push((await lastDumpTotal(variant, child.pid)) / batchSize);
    }
    return perRequest;
  } finally {
    dispatcher.destroy();
    child.kill('SIGTERM');
  }
}

const results = new Map();
const queue = [...chosen];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    while (queue.length > 0) {
      const variant = queue.shift();
      const perRequest = await measure(variant);
      results.set(variant, perRequest);
      const shown = perRequest.map((n) => Math.round(n / 100) / 10).join(', ');
      console.error(`${variant}: ${shown} k instructions/request`);
    }
  }),
);

console.log('variant     k instr/req (lowest)  step     batches');
let previous;
for (const variant of chosen) {
  const perRequest = results.get(variant);
  const value = Math.min(...perRequest) / 1000;
  const step =
    previous === undefined
      ? ''
      : `${value - previous >= 0 ? '+' : ''}${(value - previous).toFixed(1)}`;
  console.log(
    `${variant.padEnd(11)} ${value.toFixed(1).padStart(20)}  ${step.padStart(7)}  ${perRequest.map((n) => (n / 1000).toFixed(1)).join(' / ')}`,
  );
  previous = value;
}
