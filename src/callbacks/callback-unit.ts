import { callbackChannel } from '../observability/channels.js';
import type { Unit } from '../observability/traced.js';
import type { CallbackView } from '../observability/views.js';
import type { InboxEntry } from '../references/inbox/types.js';

/** How processing an entry ended: the inbox's outcome, or `rescheduled` for a later look. */
type Processed = { kind: 'complete'; outcome: string } | { kind: 'reschedule' };

/** Processing one inbox entry; its store writes are the callback's. */
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
    ended: (view, processed) => {
      if (processed === undefined) view.outcome = 'error';
      else view.outcome = processed.kind === 'complete' ? processed.outcome : 'rescheduled';
    },
  };
}
