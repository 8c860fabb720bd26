/**
 * `pesakit/testing`: prove a store of your own (docs/reference-store.md, "Write your own store"),
 * and check a store against the sandbox's own truth after a chaos run (docs/chaos.md).
 */

export {
  formatVerifyReport,
  type SandboxLocation,
  type VerifyAgainstSandboxOptions,
  type VerifyCheck,
  type VerifyReport,
  type VerifyViolation,
  verifyAgainstSandbox,
} from './testing/verify-against-sandbox.js';
export {
  type StoreFactory,
  type StoreOpenOptions,
  storeCaseNames,
  type VerifyStoreOptions,
  type VerifyStoreResult,
  verifyStore,
} from './testing/verify-store.js';
