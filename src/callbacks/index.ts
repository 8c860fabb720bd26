export type {
  CheckoutOutcome,
  CheckoutReturnQuery,
  CheckoutReturnResult,
} from './checkout-return.js';
export type { CallbackReceiverEvents } from './events.js';
export type { ReceivedRequest, ReceiverResponse } from './http.js';
export type { CallbackReceiverOptions, InboxRetentionOptions } from './options.js';
export { CallbackReceiver, type ReceiveOptions, type ReceiverDependencies } from './receiver.js';
export type { ReturnUrls } from './return-urls.js';
