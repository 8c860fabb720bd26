import type { CallbackReceiver } from '../callbacks/receiver.js';

/**
 * What the framework adapters need from a callback receiver: the framework-free `receive()` and
 * its body limit. `pesakit.createCallbackReceiver()` returns one; the adapters use nothing
 * else, so they stay thin and the receiver stays testable without a framework.
 */
export type MountableReceiver = Pick<CallbackReceiver, 'receive' | 'maxBodyBytes'>;
