// Imports the *built* package by its own name (Node's package self-reference) as an ESM user
// would, and calls something real through it.
import { errorFromResponse, isValidationError, normalizeMsisdn, resolveProvider } from 'pesakit';

const msisdn = normalizeMsisdn('0754 123 456');
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
    msisdn,
    provider: resolveProvider(msisdn),
    validation: isValidationError(error),
  }),
);
