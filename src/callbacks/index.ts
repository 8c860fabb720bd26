export type {
  CheckoutOutcome,
  CheckoutReturnQuery,
  CheckoutReturnResult,
} from './checkout-return.js';
export type { CallbackReceiverEvents } from './events.js';
export type { ReceivedRequest, ReceiverResponse } from './http.js';
export type { CallbackReceiverOptions, InboxRetentionOptions, ReturnUrls } from './options.js';
export { CallbackReceiver, type ReceiveOptions, type ReceiverDependencies } from './receiver.js';
