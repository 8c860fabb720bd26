import type { CallbackReceiver, ReceiveOptions } from '../callbacks/receiver.js';
import type { ReturnUrls } from '../callbacks/return-urls.js';

export type MountableReceiver = Pick<CallbackReceiver, 'receive' | 'maxBodyBytes'>;

/** The per-call options an adapter passes on: its own `returnUrls` win over the receiver's. */
export function receiveOptions(options: { returnUrls?: ReturnUrls }): ReceiveOptions {
  return options.returnUrls ? { returnUrls: options.returnUrls } : {};
}
