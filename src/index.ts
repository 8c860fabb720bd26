// The public surface of `pesakit`: what is not listed here by name is not API. Values and types
// are exported apart so that type-only imports stay erasable.

// Callbacks: receiver, inbox, checkout return.
export type {
  CallbackReceiverEvents,
  CallbackReceiverOptions,
  CheckoutOutcome,
  CheckoutReturnQuery,
  CheckoutReturnResult,
  InboxRetentionOptions,
  ReceivedRequest,
  ReceiveOptions,
  ReceiverDependencies,
  ReceiverResponse,
  ReturnUrls,
} from './callbacks/index.js';
export { CallbackReceiver } from './callbacks/index.js';
export type { StatusPullOptions } from './callbacks/status-puller.js';
export type { PesakitOptions } from './client.js';
export { Pesakit, verifyCheckoutReturn } from './client.js';
export type {
  AuthScheme,
  Endpoint,
  EndpointId,
  Environment,
  RequestOf,
  ResponseOf,
  RetryClass,
  UploadEndpointId,
} from './core/endpoints.js';
export type {
  CheckedRequest,
  Credentials,
  ErrorEvent,
  LastResponse,
  RequestEvent,
  ResponseEvent,
  RetryDelay,
  RetryEvent,
  Transport,
  TransportEventBase,
  TransportEvents,
  TransportOptions,
  WarningEvent,
  WithLastResponse,
} from './core/transport.js';
export {
  BulkInsufficientFundsError,
  isBulkInsufficientFundsError,
} from './errors/bulk-insufficient-funds-error.js';
export type { ApiErrorDetails, RequestInfo } from './errors/index.js';
export {
  AmbiguousOutcomeError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  DuplicateReferenceError,
  InsufficientFundsError,
  InvalidTransitionError,
  isAmbiguousOutcomeError,
  isApiError,
  isAuthenticationError,
  isBadRequestError,
  isConfigurationError,
  isConflictError,
  isConnectionError,
  isDuplicateReferenceError,
  isInsufficientFundsError,
  isInvalidTransitionError,
  isNotFoundError,
  isPermissionError,
  isPesakitError,
  isRateLimitError,
  isReferenceConflictError,
  isRequestAbortedError,
  isRequestValidationError,
  isResponseValidationError,
  isServerError,
  isStoreError,
  isStoreInputError,
  isTimeoutError,
  isTransactionNotFoundError,
  isValidationError,
  NotFoundError,
  PermissionError,
  PesakitError,
  RateLimitError,
  ReferenceConflictError,
  RequestAbortedError,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  StoreError,
  StoreInputError,
  TimeoutError,
  TransactionNotFoundError,
  ValidationError,
} from './errors/index.js';
export type {
  NotPaidReason,
  PaidRecord,
  PaidVerdict,
  PaymentObservation,
} from './ledger/is-paid.js';
export { isPaid } from './ledger/is-paid.js';
export { resolveReview } from './ledger/ledger.js';
export {
  applyCollectionObservation,
  type CollectionSettlement,
} from './ledger/settle-collection.js';
// The diagnostics channels' views, for subscribers (docs/observability.md).
export type * from './observability/views.js';
export type { OpenApiDocument, OpenApiOptions } from './openapi/index.js';
export { buildOpenApiDocument } from './openapi/index.js';
export type {
  ReconcileProgress,
  ReconcilerDependencies,
  ReconcilerEvents,
  ReconcilerOptions,
  ReconcilerSnapshot,
  ReconcileSummary,
  RunOnceOptions,
} from './reconciler/index.js';
export { defaultSchedules, Reconciler } from './reconciler/index.js';
export type { NotVisibleWarning } from './references/account.js';
export type {
  ClaimEffectsOptions,
  EffectClaim,
  EffectOutbox,
  FailEffectOptions,
} from './references/effects.js';
export type {
  CallbackClaim,
  CallbackInbox,
  InboxAppend,
  InboxBacklog,
  InboxClaim,
  InboxClaimOptions,
  InboxEntry,
  InboxEntryStatus,
  InboxFinish,
  InboxListOptions,
  InboxPruneOptions,
} from './references/inbox/types.js';
export type {
  Flow,
  ListOpenOptions,
  MemoryReferenceStoreOptions,
  PlatformReferenceField,
  RecordAccount,
  ReferenceField,
  ReferenceStore,
  References,
  TransactionIntent,
  TransactionRecord,
  TransactionRecords,
  TransactionStatus,
} from './references/index.js';
export {
  allowedTransitions,
  canTransition,
  isFinalStatus,
  MemoryReferenceStore,
  openStatuses,
  reportsOf,
  transactionStatuses,
} from './references/index.js';
export type {
  OperationsReport,
  OperationsReportOptions,
  ProviderHealth,
} from './references/operations-report.js';
export type {
  RateLimitGrant,
  RateLimitTake,
  SharedRateLimit,
} from './references/rate-limit/types.js';
export type { EffectState, EffectStatus } from './references/record.js';
export type {
  Contradiction,
  Resolution,
  ReviewReason,
  ReviewVerdict,
} from './references/review.js';
export { reviewReasons } from './references/review.js';
export { isLeaseLostError, LeaseLostError } from './references/schedule/lease-lost-error.js';
export type {
  LeaseDueOptions,
  LeasedRecord,
  LeaseRelease,
  ReleaseLeaseOptions,
  SchedulingStore,
} from './references/schedule/types.js';
export type {
  MoveCommit,
  RecordChange,
  RecordMove,
  ResolveOptions,
  StoreReports,
  StoreSummary,
} from './references/types.js';
export type {
  WalletFloat,
  WalletFloatState,
  WalletReservation,
} from './references/wallet-float.js';
export type { Airtime } from './resources/airtime.js';
export {
  AnswerContradictsRequestError,
  isAnswerContradictsRequestError,
} from './resources/answer-contradicts-request-error.js';
export type {
  AirtimeBulkPurchase,
  AirtimeBulkSource,
} from './resources/bulk/airtime-bulk.js';
// Bulk sends: airtime.bulkPurchase and disbursement.bulkPay, their results and errors.
export {
  BatchAlreadyRunError,
  isBatchAlreadyRunError,
} from './resources/bulk/batch-already-run-error.js';
export {
  BatchMismatchError,
  type BatchRowMismatch,
  isBatchMismatchError,
} from './resources/bulk/batch-mismatch-error.js';
export {
  BulkValidationError,
  isBulkValidationError,
} from './resources/bulk/bulk-validation-error.js';
export {
  type DisbursementBulkPay,
  type DisbursementBulkSource,
  estimatedCharge,
} from './resources/bulk/payout-bulk.js';
export type {
  AirtimeBulkEvents,
  AirtimeBulkOptions,
  AirtimeBulkOutcomeStatus,
  AirtimeBulkResult,
  AirtimeBulkRowOutcome,
  AirtimeBulkTotals,
  BulkEvents,
  BulkRowOutcome,
  BulkRowStatus,
  BulkStopReason,
  BulkTotals,
  DisbursementBulkOptions,
  DisbursementBulkResult,
  PayoutBulkRow,
} from './resources/bulk/types.js';
export type { CallOptions } from './resources/call-options.js';
export { merchantReferenceParam } from './resources/callback-url.js';
export type { Collection } from './resources/collection.js';
export type { Disbursement } from './resources/disbursement.js';
export { newMerchantReference } from './resources/merchant-reference.js';
export type { MoneyMovementOptions, WithMerchantReference } from './resources/move-money.js';
export type { Page, PagePromise } from './resources/pagination.js';
export {
  isRecordNotVisibleError,
  RecordNotVisibleError,
} from './resources/record-not-visible-error.js';
// Bulk airtime: the limits and the spreadsheets (.xlsx through the optional peer exceljs; CSV).
export type {
  AirtimeBulkResponse,
  AirtimeBulkRow,
  AirtimeBulkRowResult,
  AirtimeBulkRowStatus,
} from './schemas/airtime-bulk.js';
export { AIRTIME_BULK_MAX_FILE_BYTES, AIRTIME_BULK_MAX_ROWS } from './schemas/airtime-bulk.js';
// Helpers for amounts, MSISDNs and providers; the platform's request and answer types.
export { amountToCents, centsToAmount, MAX_AMOUNT_TZS, sameAmount } from './schemas/amount.js';
export type * from './schemas/index.js';
export { normalizeMsisdn } from './schemas/msisdn.js';
export type { Product } from './schemas/product.js';
export { providerNames, resolveProvider } from './schemas/provider.js';
export type {
  CollectionRecord,
  EffectContext,
  EffectKind,
  EffectRunnerEvents,
  EffectRunnerOptions,
  MoneyOutRecord,
  SettlementHandlers,
} from './settlement/index.js';
export { DEFAULT_EFFECT_RETRY_DELAYS, EffectRunner } from './settlement/index.js';
export type {
  AirtimeBulkRowInput,
  BulkRowProblem,
  ParsedAirtimeBulkFile,
  ParsedAirtimeBulkRow,
  ReadAirtimeBulkFileOptions,
  SheetFormat,
  SpreadsheetErrorCode,
  UncheckedAirtimeBulkRow,
  WriteSheetOptions,
} from './spreadsheets/index.js';
export {
  bulkRowFieldErrors,
  detectSheetFormat,
  isSpreadsheetError,
  readAirtimeBulkFile,
  SpreadsheetError,
  validateAirtimeBulkRows,
  writeSheet,
} from './spreadsheets/index.js';
