export type { TransactionStatus } from '../schemas/transaction-status.js';
export { reportsOf } from './listed-reports.js';
export { MemoryReferenceStore, type MemoryReferenceStoreOptions } from './memory-store.js';
export type {
  Flow,
  PlatformReferenceField,
  RecordAccount,
  ReferenceField,
  References,
  TransactionRecord,
} from './record.js';
export {
  allowedTransitions,
  canTransition,
  isFinalStatus,
  openStatuses,
  transactionStatuses,
} from './transitions.js';
export type {
  ListOpenOptions,
  ReferenceStore,
  StoreReports,
  TransactionIntent,
  TransactionRecords,
} from './types.js';
