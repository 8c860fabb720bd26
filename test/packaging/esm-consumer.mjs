// Imports the *built* package by its own name (Node's package self-reference) as an ESM user
// would, and makes a real call: a sandbox from `pesakit/sandbox`, called through `Pesakit`
// (ky, p-retry and the schemas on the way).
import { errorFromResponse, isValidationError, normalizeMsisdn, Pesakit } from 'pesakit';
import { pesakitExpress } from 'pesakit/express';
import { pesakitFastify } from 'pesakit/fastify';
import { createSandbox } from 'pesakit/sandbox';

const sandbox = await createSandbox({ autoSettle: false });
const baseUrl = await sandbox.listen({ port: 0 });
try {
  const pesakit = new Pesakit({ baseUrl });
  const sample = await pesakit.collection.testProvider('airtel');
  const error = errorFromResponse({
    status: 422,
    body: {
      message: 'The amount field is required.',
      errors: { amount: ['The amount field is required.'] },
    },
    headers: new Headers(),
    method: 'POST',
    path: '/x',
  });
  console.log(
    JSON.stringify({
      msisdn: normalizeMsisdn('0754 123 456'),
      provider: sample.provider,
      signed: /^[0-9a-f]{64}$/.test(sample.hash),
      validation: isValidationError(error),
      middleware: [typeof pesakitExpress, pesakitFastify[Symbol.for('plugin-meta')]?.name],
    }),
  );
} finally {
  await sandbox.close();
}
