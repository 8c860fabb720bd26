export { AmbiguousOutcomeError, isAmbiguousOutcomeError } from './ambiguous-outcome-error.js';
export { ApiError, type ApiErrorDetails, isApiError } from './api-error.js';
export { AuthenticationError, isAuthenticationError } from './authentication-error.js';
export { BadRequestError, isBadRequestError } from './bad-request-error.js';
export { ConfigurationError, isConfigurationError } from './configuration-error.js';
export { ConflictError, isConflictError } from './conflict-error.js';
export { ConnectionError, isConnectionError } from './connection-error.js';
export { DuplicateReferenceError, isDuplicateReferenceError } from './duplicate-reference-error.js';
export { errorFromResponse } from './from-response.js';
export { InsufficientFundsError, isInsufficientFundsError } from './insufficient-funds-error.js';
export { InvalidTransitionError, isInvalidTransitionError } from './invalid-transition-error.js';
export { isNotFoundError, NotFoundError } from './not-found-error.js';
export { isPermissionError, PermissionError } from './permission-error.js';
export { isPesakitError, PesakitError } from './pesakit-error.js';
export { isRateLimitError, parseRetryAfter, RateLimitError } from './rate-limit-error.js';
export { isReferenceConflictError, ReferenceConflictError } from './reference-conflict-error.js';
export { isRequestAbortedError, RequestAbortedError } from './request-aborted-error.js';
export type { RequestInfo } from './request-info.js';
export { isRequestValidationError, RequestValidationError } from './request-validation-error.js';
export { isResponseValidationError, ResponseValidationError } from './response-validation-error.js';
export { isServerError, ServerError } from './server-error.js';
export { isStoreError, StoreError } from './store-error.js';
export { isStoreInputError, StoreInputError } from './store-input-error.js';
export { isTimeoutError, TimeoutError } from './timeout-error.js';
export {
  isTransactionNotFoundError,
  TransactionNotFoundError,
} from './transaction-not-found-error.js';
export { isValidationError, ValidationError } from './validation-error.js';
