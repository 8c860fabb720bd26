import { reconcileChannel } from '../observability/channels.js';
import type { Unit } from '../observability/traced.js';
import type { ReconcileView } from '../observability/views.js';
import type { TransactionRecord } from '../references/record.js';
import type { CheckOutcome } from './check-context.js';

/** One reconciler check of `record`; its store writes are the reconciler's. */
export function reconcileUnit(record: TransactionRecord): Unit<ReconcileView, CheckOutcome> {
  return {
    channel: reconcileChannel,
    source: 'reconciler',
    view: () => ({
      merchantReference: record.merchantReference,
      product: record.product,
      outcome: undefined,
      errorType: undefined,
    }),
    ended: (view, outcome) => {
      // A move another path made first is not this check's.
      const kind = outcome?.kind;
      const moved = kind === 'pending' || kind === 'already_final' || outcome?.changed === true;
      view.outcome = outcome === undefined ? 'error' : moved ? kind : 'already_final';
    },
  };
}
