// One server for bench/lib/sandbox-throughput-variants.mjs: a Fastify app built one step at a time
// from the benchmark's bare route toward the sandbox, so that an instruction count per request
// can say which step costs what. Run under valgrind by that benchmark; on its own:
//
//   node bench/lib/sandbox-variant-server.mjs <variant>   # prints `listening on <url> <path>`
//
// Variants are cumulative: each one is the one before it plus one thing the sandbox does (the
// list is VARIANTS below). `sandbox` is the real sandbox (dist/sandbox, or BENCH_SANDBOX_MODULE),
// seeded as bench/sandbox-throughput.mjs seeds it; the driver sends every variant after `bare`
// the sandbox's own status request (its URL, its bearer header, a body of the same shape).
// The sandbox's pieces are copied here rather than imported (they are not exported); keep them
// in step with src/sandbox/server.ts, http/json-body.ts, http/security-headers.ts, http/errors.ts.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import secureJson from 'secure-json-parse';
import { BENCH_SEED } from './sandbox-throughput-seed.mjs';

export const STATUS_PATH = '/api/sandbox/transaction/status';

/** Each step adds one thing to the one before it; the name says what. */
export const VARIANTS = [
  'bare', // the benchmark's bare route, its own request (POST /bare, no authorization)
  'request', // the same app, the sandbox's request (status URL, bearer header, same body size)
  'options', // + the sandbox's Fastify options (ids, timeouts, router, body limit, close)
  'parser', // + the sandbox's JSON content-type parser (RegExp, parseAs string)
  'sync', // + a synchronous handler instead of an async one
  'hook', // + the onSend hook: x-request-id and the five API security headers
  'errors', // + the error and not-found handlers
  'ratelimit', // + @fastify/rate-limit registered with global: false (login limits)
  'answer', // + the status answer itself (403 bytes instead of about 60)
  'sandbox', // the real sandbox: every route, auth, zod, lookup, the real view
];

export const API_SECURITY_HEADERS = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
});

// A status answer as the sandbox gives it (403 bytes), for the `answer` step.
const STATUS_ANSWER = {
  message: 'The transaction is pending.',
  data: {
    controlNumber: '992277072311',
    reference: 'ENG2137D07FBC55EFC6',
    external_reference: null,
    channel: 'mno',
    amount: 1500,
    msisdn: '255754000998',
    provider: 'vodacom',
    status: 'pending',
    transactionID: null,
    paid_amount: null,
    callback_url: null,
    description: 'bench order',
    created_at: '2026-11-26T04:03:12.271Z',
    updated_at: '2026-11-26T04:03:12.271Z',
  },
};

function has(variant, step) {
  return VARIANTS.indexOf(variant) >= VARIANTS.indexOf(step);
}

/**
 * The sandbox's Fastify options (src/sandbox/server.ts). BENCH_VARIANT_DROP (a comma-separated
 * list of option names, e.g. `genReqId,connectionTimeout`) leaves some out, to price each one.
 */
function sandboxOptions() {
  const requestTimeoutMs = 30_000;
  const options = {
    logger: false,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    forceCloseConnections: true,
    requestIdHeader: false,
    requestTimeout: requestTimeoutMs,
    connectionTimeout: 120_000,
    http: {
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
    },
    genReqId: () => `req_${randomUUID()}`,
  };
  for (const name of (process.env.BENCH_VARIANT_DROP ?? '').split(',')) delete options[name];
  return options;
}

function addParser(app) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      let value;
      try {
        value = JSON.parse(text);
      } catch {
        return done(new Error('not JSON'), undefined);
      }
      if (
        typeof value === 'object' &&
        value !== null &&
        (text.includes('__proto__') || text.includes('constructor') || text.includes('\\u'))
      ) {
        secureJson.scan(value, { protoAction: 'error', constructorAction: 'error' });
      }
      done(null, value);
    },
  );
}

/**
 * The sandbox's answer hook (src/sandbox/http/security-headers.ts, without the latency fault).
 * BENCH_VARIANT_HOOK prices its parts: `empty` (the hook calls `done` only), `id` (only
 * x-request-id), `headers` (id and the five headers, no `hasHeader` check), `full` (default).
 */
function addHook(app) {
  const part = process.env.BENCH_VARIANT_HOOK ?? 'full';
  app.addHook('onSend', (request, reply, payload, done) => {
    if (part !== 'empty') reply.header('x-request-id', request.id);
    if (part === 'headers') reply.headers(API_SECURITY_HEADERS);
    if (part === 'full' && !reply.hasHeader('content-security-policy'))
      reply.headers(API_SECURITY_HEADERS);
    done(null, payload);
  });
}

function addErrors(app) {
  app.setErrorHandler((error, _request, reply) => {
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500)
      return reply.code(status).send({ message: error.message });
    return reply.code(500).send({ message: 'The sandbox failed unexpectedly; this is a bug.' });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ message: `No route for ${request.method} ${request.url}.` }),
  );
}

async function startStep(variant) {
  const app = Fastify(has(variant, 'options') ? sandboxOptions() : {});
  if (has(variant, 'hook')) addHook(app);
  if (has(variant, 'parser')) addParser(app);
  if (has(variant, 'errors')) addErrors(app);
  if (has(variant, 'ratelimit')) await app.register(rateLimit, { global: false });
  const path = variant === 'bare' ? '/bare' : STATUS_PATH;
  const answer = has(variant, 'answer')
    ? () => STATUS_ANSWER
    : (request) => ({ message: 'ok', received: request.body });
  if (has(variant, 'sync')) app.post(path, (request) => answer(request));
  else app.post(path, async (request) => answer(request));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, path, token: 'x'.repeat(42), body: { ref_id: '990000000001' } };
}

async function call(url, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}`);
  return response.json();
}

async function startSandbox() {
  const module =
    process.env.BENCH_SANDBOX_MODULE ??
    fileURLToPath(new URL('../../dist/sandbox/index.js', import.meta.url));
  if (!existsSync(module)) throw new Error(`${module} is missing: build first.`);
  const { createSandbox } = await import(module);
  const sandbox = await createSandbox({ seed: BENCH_SEED, autoSettle: false, recordLimit: 1e6 });
  const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  const [collection] = BENCH_SEED.accounts;
  const { token } = await call(url, '/api/sandbox/login', {
    email: collection.email,
    password: collection.password,
  });
  const initiate = { amount: 1500, msisdn: '255754000998', description: 'bench order' };
  const { controlNumber } = await call(url, '/api/sandbox/initiate-payment/mno/', initiate, token);
  return { url, path: STATUS_PATH, token, body: { ref_id: controlNumber } };
}

// Imported by the driver for VARIANTS: start a server only when run as a script.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv[2]);

async function main(variant) {
  if (!VARIANTS.includes(variant))
    throw new Error(`usage: sandbox-variant-server.mjs ${VARIANTS.join('|')}`);
  const target = variant === 'sandbox' ? await startSandbox() : await startStep(variant);
  // One line the driver reads: where to send what.
  console.log(
    `listening ${JSON.stringify({
      url: `${target.url}${target.path}`,
      token: variant === 'bare' ? undefined : target.token,
      body: JSON.stringify(target.body),
    })}`,
  );
  process.once('disconnect', () => process.exit(0));
  process.once('SIGTERM', () => process.exit(0));
}
