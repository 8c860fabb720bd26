import type { InboxEntry } from '../references/inbox/types.js';
import { type CallbackView, callbackChannel, callbackReceivedChannel } from './channels.js';
import type { Unit } from './traced.js';

/** How processing an entry ended: the inbox's outcome, or `rescheduled` for a later look. */
type Processed = { kind: 'complete'; outcome: string } | { kind: 'reschedule' };

/** Processing one inbox entry on `pesakit.callback`; its store writes are the callback's. */
export function callbackUnit(entry: InboxEntry): Unit<CallbackView, Processed> {
  return {
    channel: callbackChannel,
    source: 'callback',
    view: () => ({
      entryId: entry.id,
      product: 'collection',
      merchantReference: entry.claim.merchantReferenceHint ?? undefined,
      outcome: undefined,
      errorType: undefined,
    }),
    settled: (view, processed) => {
      view.outcome = processed.kind === 'complete' ? processed.outcome : 'rescheduled';
    },
    failed: (view) => {
      view.outcome = 'error';
    },
  };
}

/** A callback taken in: stored, or counted on the entry it duplicates. */
export function publishCallbackReceived(entryId: string, duplicate: boolean): void {
  if (callbackReceivedChannel.hasSubscribers) {
    callbackReceivedChannel.publish(Object.freeze({ entryId, duplicate }));
  }
}
