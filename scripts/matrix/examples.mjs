// Runs each example shipped in the tarball (node_modules/pesakit/examples) against a sandbox,
// as a merchant copying it would: the shops take a phone payment that the sandbox settles and
// its callback marks paid; the cron jobs settle, by pull, a payment whose callback never came.
// ES module examples (TypeScript) run through tsx; the CommonJS ones with plain `node`.
// Prints one JSON line per example: { feature, ok, detail }.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const given = JSON.parse(process.argv[2] ?? '{}');
const require = createRequire(join(given.dir, 'package.json'));
const { createSandbox } = require('pesakit/sandbox');
const { Pesakit } = require('pesakit');
const { SqliteReferenceStore } = require('pesakit/sqlite');

// The one sandbox account of every page and example.
const account = { email: 'shop@example.co.tz', password: 'sandbox-pass-1' };
const shipped = join(given.dir, '..', 'node_modules', 'pesakit', 'examples');
// Resolved from the project, where a merchant would have installed it (`npm install -D tsx`).
const tsx = import.meta.resolve('tsx');

const examples = [
  { name: 'express-merchant', entry: 'server.ts', kind: 'shop' },
  { name: 'fastify-merchant', entry: 'server.ts', kind: 'shop' },
  { name: 'express-merchant-cjs', entry: 'server.cjs', kind: 'shop' },
  { name: 'cron-reconciler', entry: 'reconcile-job.ts', kind: 'job' },
  { name: 'cron-reconciler-cjs', entry: 'reconcile-job.cjs', kind: 'job' },
  { name: 'chaos-integration', entry: 'verify-integration.ts', kind: 'alone' },
];

for (const example of examples) {
  const feature = `example ${example.name}`;
  const scratch = mkdtempSync(join(tmpdir(), 'pesakit-example-'));
  const sandbox = await createSandbox({
    seed: { accounts: [{ product: 'collection', ...account }] },
    autoSettle: example.kind === 'shop' ? { delayMs: 100 } : false,
  });
  try {
    const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    // Copied beside the project's node_modules, as a merchant's copy would sit in their project.
    const directory = join(given.dir, '..', 'examples', example.name);
    rmSync(directory, { recursive: true, force: true });
    cpSync(join(shipped, example.name), directory, { recursive: true });
    const detail =
      example.kind === 'shop'
        ? await runShop(example, directory, url, scratch)
        : example.kind === 'job'
          ? await runJob(example, directory, url, scratch)
          : await runAlone(example, directory);
    console.log(JSON.stringify({ feature, ok: true, detail }));
  } catch (error) {
    console.log(JSON.stringify({ feature, ok: false, detail: String(error?.stack ?? error) }));
  } finally {
    await sandbox.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function argsFor(example) {
  return example.entry.endsWith('.ts') ? ['--import', tsx, example.entry] : [example.entry];
}

/** The shop: an order paid by phone, settled by the sandbox, marked paid by its callback. */
async function runShop(example, directory, baseUrl, scratch) {
  const child = spawn(process.execPath, argsFor(example), {
    cwd: directory,
    env: {
      ...process.env,
      PESAKIT_BASE_URL: baseUrl,
      PORT: '0',
      DATABASE_FILE: join(scratch, 'shop.sqlite'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    const shop = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "shop listening" in 60 s:\n${output}`)),
        60_000,
      );
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /shop listening on (\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`the shop exited ${code}:\n${output}`)));
    });
    const created = await fetch(`${shop}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1500, msisdn: '255754123456' }),
    });
    const order = await created.json();
    if (created.status !== 201)
      throw new Error(`POST /orders: ${created.status} ${JSON.stringify(order)}`);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const now = await (await fetch(`${shop}/orders/${order.id}`)).json();
      if (now.status === 'paid') return `order ${order.id} paid`;
      if (Date.now() > deadline)
        throw new Error(`order still ${now.status} after 30 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    child.kill('SIGTERM');
  }
}

/** The job: a payment settled on the platform whose callback never came, settled by its pass. */
async function runJob(example, directory, baseUrl, scratch) {
  const file = join(scratch, 'shop.sqlite');
  const store = await SqliteReferenceStore.open(file, { now: () => new Date(Date.now() - 60_000) });
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl,
    store,
    credentials: { collection: account },
  });
  const payment = await pesakit.collection.initiateMno({ amount: 2500, msisdn: '255754123456' });
  await store.close();
  const settled = await fetch(`${baseUrl}/api/sandbox/_control/collection/settle`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ref_id: payment.controlNumber, outcome: 'success' }),
  });
  if (!settled.ok) throw new Error(`settle: ${settled.status} ${await settled.text()}`);
  const run = await new Promise((resolve) => {
    const child = spawn(process.execPath, argsFor(example), {
      cwd: directory,
      env: {
        ...process.env,
        PESAKIT_STORE: file,
        PESAKIT_BASE_URL: baseUrl,
        PESAKIT_COLLECTION_EMAIL: account.email,
        PESAKIT_COLLECTION_PASSWORD: account.password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
  const settledLine =
    run.stdout.includes(`"event":"settled","at"`) && run.stdout.includes(payment.merchantReference);
  if (run.code !== 0 || !settledLine) {
    throw new Error(`the job exited ${run.code}:\n${run.stdout}${run.stderr}`);
  }
  return `exit 0, ${payment.merchantReference} settled`;
}

/** An example that brings its own sandbox (chaos mode): seed 42, 30 payments, verified. */
async function runAlone(example, directory) {
  const run = await new Promise((resolve) => {
    const child = spawn(process.execPath, [...argsFor(example), '42', '30'], {
      cwd: directory,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
  if (run.code !== 0 || !run.output.includes('verified: all 8 checks hold')) {
    throw new Error(`the example exited ${run.code}:\n${run.output}`);
  }
  return 'exit 0, all 8 checks hold';
}
