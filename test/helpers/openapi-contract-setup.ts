import { afterEach, beforeAll, expect } from 'vitest';
import { contractCheck } from './openapi-contract.js';

// Every request the SDK sends and every answer the sandbox gives in the integration tests is
// checked against docs/openapi.json (test/helpers/openapi-contract.ts): zero violations.
beforeAll(() => {
  contractCheck.enabled = /[\\/]test[\\/]integration[\\/]/.test(expect.getState().testPath ?? '');
});

afterEach(async () => {
  if (!contractCheck.enabled) return;
  contractCheck.invalidOnPurpose = false;
  await Promise.all(contractCheck.pending.splice(0));
  const found = contractCheck.violations.splice(0);
  expect(found, 'requests or answers that docs/openapi.json does not describe').toEqual([]);
});
