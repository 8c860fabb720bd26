import type { ReturnUrls } from '../callbacks/options.js';
import type { CallbackReceiver, ReceiveOptions } from '../callbacks/receiver.js';

/**
 * What the framework adapters need from a callback receiver: the framework-free `receive()` and
 * its body limit. `pesakit.createCallbackReceiver()` returns one; the adapters use nothing
 * else, so they stay thin and the receiver stays testable without a framework.
 */
export type MountableReceiver = Pick<CallbackReceiver, 'receive' | 'maxBodyBytes'>;

/** The per-call options an adapter passes on: its own `returnUrls` win over the receiver's. */
export function receiveOptions(options: { returnUrls?: ReturnUrls }): ReceiveOptions {
  return options.returnUrls ? { returnUrls: options.returnUrls } : {};
}
