import type { TransactionRecord, TransactionStatus } from '../references/types.js';
import { type TransitionSource, type TransitionView, transitionChannel } from './channels.js';
import { transitionSources } from './traced.js';

/**
 * Publishes a committed status change on `pesakit:record:transition`. Its source is the one given
 * (a person's resolve) or that of the traced work that made it; a change pesakit's own work did
 * not cause (the application writing to the store itself) is not published.
 */
export function publishTransition(
  record: TransactionRecord,
  from: TransactionStatus,
  given?: TransitionSource,
): void {
  if (!transitionChannel.hasSubscribers) return;
  const source = given ?? transitionSources.getStore();
  if (source === undefined) return;
  const view: TransitionView = {
    merchantReference: record.merchantReference,
    product: record.product,
    from,
    to: record.status,
    source,
    createdAt: new Date(record.createdAt),
  };
  transitionChannel.publish(Object.freeze(view));
}
