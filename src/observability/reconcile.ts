import type { CheckOutcome } from '../reconciler/check-context.js';
import type { TransactionRecord } from '../references/types.js';
import { type ReconcileView, reconcileChannel } from './channels.js';
import type { Unit } from './traced.js';

/** One reconciler check of `record` on `pesakit.reconcile`; its store writes are the reconciler's. */
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
    settled: (view, outcome) => {
      // A move another path made first is not this check's.
      const moved =
        outcome.kind === 'pending' || outcome.kind === 'already_final' || outcome.changed;
      view.outcome = moved ? outcome.kind : 'already_final';
    },
    failed: (view) => {
      view.outcome = 'error';
    },
  };
}
