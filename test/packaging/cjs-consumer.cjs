// `require`s the *built* CJS bundles by the package's own name and makes a real call through
// them. ky and p-retry are ESM-only, so this only works if tsup bundled them into the CJS build.
const { Pesakit, normalizeMsisdn, isRequestValidationError } = require('pesakit');
const { createSandbox } = require('pesakit/sandbox');
const { pesakitExpress } = require('pesakit/express');
const { pesakitFastify } = require('pesakit/fastify');

async function main() {
  const sandbox = await createSandbox({ autoSettle: false });
  const baseUrl = await sandbox.listen({ port: 0 });
  try {
    const pesakit = new Pesakit({ baseUrl });
    const sample = await pesakit.collection.testProvider('vodacom');
    const refused = await pesakit.disbursement
      .pay({ msisdn: '255631234567', amount: 1000, name: 'x' })
      .catch((error) => error);
    console.log(
      JSON.stringify({
        msisdn: normalizeMsisdn('+255 713 000 111'),
        provider: sample.provider,
        signed: /^[0-9a-f]{64}$/.test(sample.hash),
        validation: isRequestValidationError(refused),
        middleware: [typeof pesakitExpress, pesakitFastify[Symbol.for('plugin-meta')]?.name],
      }),
    );
  } finally {
    await sandbox.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
