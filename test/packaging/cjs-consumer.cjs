// `require`s the *built* CJS bundles by the package's own name and makes real calls through
// them. ky, p-retry and p-queue are ESM-only, so the client, the receiver and the reconciler
// work only if tsup bundled them into the CJS build; an error a store throws is `instanceof` the
// root's `PesakitError` only if the entries share one copy of each class.
const {
  Pesakit,
  PesakitError,
  MemoryReferenceStore,
  normalizeMsisdn,
  isRequestValidationError,
} = require('pesakit');
const { createSandbox } = require('pesakit/sandbox');
const { pesakitExpress } = require('pesakit/express');
const { pesakitFastify } = require('pesakit/fastify');
const { SqliteReferenceStore } = require('pesakit/sqlite');
const { instrumentPesakit } = require('pesakit/otel');
const { verifyAgainstSandbox, verifyStore, storeCaseNames } = require('pesakit/testing');
const { failedByBrokenStore } = require('./broken-store.cjs');

async function main() {
  const instrumentation = instrumentPesakit();
  const sandbox = await createSandbox({ autoSettle: false });
  const baseUrl = await sandbox.listen({ port: 0 });
  try {
    const pesakit = new Pesakit({ baseUrl });
    const sample = await pesakit.collection.testProvider('vodacom');
    const refused = await pesakit.disbursement
      .pay({ msisdn: '255631234567', amount: 1000, name: 'x' })
      .catch((error) => error);
    const receiver = pesakit.createCallbackReceiver();
    const reconciled = await pesakit.createReconciler().runOnce();
    await receiver.close();
    const store = await SqliteReferenceStore.open(':memory:');
    const storeError = await store.records.create({}).catch((error) => error);
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
    const broken = await failedByBrokenStore(verifyStore, MemoryReferenceStore);
    const report = await verifyAgainstSandbox({ store: pesakit.store, sandbox: baseUrl });
    console.log(
      JSON.stringify({
        msisdn: normalizeMsisdn('+255 713 000 111'),
        provider: sample.provider,
        signed: /^[0-9a-f]{64}$/.test(sample.hash),
        validation: isRequestValidationError(refused),
        middleware: [typeof pesakitExpress, pesakitFastify[Symbol.for('plugin-meta')]?.name],
        reconciled: typeof reconciled,
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
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
