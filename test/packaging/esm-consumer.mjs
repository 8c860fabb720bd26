// Imports the *built* package by its own name (Node's package self-reference) as an ESM user
// would, and makes a real call: a sandbox from `pesakit/sandbox`, called through `Pesakit`
// (ky, p-retry and the schemas on the way).

import Fastify from 'fastify';
import {
  isValidationError,
  MemoryReferenceStore,
  normalizeMsisdn,
  Pesakit,
  PesakitError,
} from 'pesakit';
import { pesakitExpress } from 'pesakit/express';
import { pesakitFastify } from 'pesakit/fastify';
import { instrumentPesakit } from 'pesakit/otel';
import { createSandbox } from 'pesakit/sandbox';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { storeCaseNames, verifyAgainstSandbox, verifyStore } from 'pesakit/testing';
import brokenStore from './broken-store.cjs';

// The global (no-op) OpenTelemetry providers: the subpath loads and subscribes.
const instrumentation = instrumentPesakit();
const sandbox = await createSandbox({ autoSettle: false });
const baseUrl = await sandbox.listen({ port: 0 });
try {
  const pesakit = new Pesakit({ baseUrl });
  const sample = await pesakit.collection.testProvider('airtel');
  // The built plugin over the built receiver: a callback that is not JSON is refused (415).
  const shop = Fastify();
  await shop.register(pesakitFastify, { receiver: pesakit.createCallbackReceiver() });
  const refusedCallback = await shop.inject({
    method: 'POST',
    url: '/pesakit/callback',
    headers: { 'content-type': 'text/plain' },
    payload: 'status=true',
  });
  await shop.close();
  const error = await pesakit.disbursement
    .pay({ msisdn: '255631234567', amount: 1000, name: 'x' })
    .catch((refused) => refused);
  // An error thrown by `pesakit/sqlite` is the root's class: the entries share their modules.
  const store = await SqliteReferenceStore.open(':memory:');
  const storeError = await store.records.create({}).catch((refused) => refused);
  await store.close();
  // The conformance kit on the root's memory store: every case passes but the restart.
  let memory;
  const kit = await verifyStore({
    persistent: false,
    open: async ({ fresh, now }) => {
      if (fresh || memory === undefined) memory = new MemoryReferenceStore({ now });
      return memory;
    },
  });
  const broken = await brokenStore.failedByBrokenStore(verifyStore, MemoryReferenceStore);
  // The verifier reads the sandbox's truth over HTTP: the refused payout left nothing to find.
  const report = await verifyAgainstSandbox({ store: pesakit.store, sandbox: baseUrl });
  console.log(
    JSON.stringify({
      msisdn: normalizeMsisdn('0754 123 456'),
      provider: sample.provider,
      signed: /^[0-9a-f]{64}$/.test(sample.hash),
      validation: isValidationError(error),
      middleware: [typeof pesakitExpress, refusedCallback.statusCode],
      sharedClasses: storeError instanceof PesakitError,
      otel: typeof instrumentation.disable,
      storeKit: {
        failed: kit.failed,
        skipped: kit.skipped.length,
        all: kit.passed + kit.skipped.length === storeCaseNames().length,
        broken,
      },
      verified: report.ok,
    }),
  );
} finally {
  instrumentation.disable();
  await sandbox.close();
}
