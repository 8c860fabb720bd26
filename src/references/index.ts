export { MemoryReferenceStore, type MemoryReferenceStoreOptions } from './memory-store.js';
export {
  allowedTransitions,
  canTransition,
  isFinalStatus,
  openStatuses,
  transactionStatuses,
} from './transitions.js';
export type {
  Flow,
  ListOpenOptions,
  PlatformReferenceField,
  RecordAccount,
  ReferenceField,
  ReferenceStore,
  References,
  TransactionIntent,
  TransactionRecord,
  TransactionRecords,
  TransactionStatus,
  TransitionDetails,
} from './types.js';
