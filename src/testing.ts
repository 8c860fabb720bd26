/** `pesakit/testing`: prove a store of your own (see docs/reference-store.md, "Write your own store"). */
export {
  type StoreFactory,
  type StoreOpenOptions,
  storeCaseNames,
  type VerifyStoreOptions,
  type VerifyStoreResult,
  verifyStore,
} from './testing/verify-store.js';
