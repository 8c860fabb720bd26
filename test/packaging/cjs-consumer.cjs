// `require`s the *built* CJS bundle by the package's own name. ky and p-retry are ESM-only, so
// this only works if tsup bundled them into the CJS build.
const {
  normalizeMsisdn,
  resolveProvider,
  errorFromResponse,
  isValidationError,
} = require('pesakit');

const msisdn = normalizeMsisdn('+255 713 000 111');
const error = errorFromResponse({
  status: 422,
  body: { message: 'Insufficient wallet balance.', code: 'insufficient_funds', errors: {} },
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
