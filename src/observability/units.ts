import type { Call } from '../core/call.js';
import type { Environment } from '../core/endpoints.js';
import { endpointTemplate } from '../core/paths.js';
import type { CheckOutcome } from '../reconciler/check-context.js';
import type { InboxEntry } from '../references/inbox/types.js';
import type { TransactionRecord } from '../references/types.js';
import { callbackChannel, reconcileChannel, requestChannel } from './channels.js';
import type { Unit } from './traced.js';
import type { CallbackView, ReconcileView, RequestView } from './views.js';

// The traced units of the SDK's own work; the public calls' are in operations.ts.

/** One HTTP attempt of `call`: the path template, never the path itself. */
export function requestUnit(call: Call, environment: Environment): Unit<RequestView, unknown> {
  return {
    channel: requestChannel,
    view: () => {
      const url = new URL(call.url);
      return {
        method: call.endpoint.method,
        urlTemplate: endpointTemplate(call.endpoint, environment),
        serverAddress: url.hostname,
        serverPort: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
        attempt: call.attempt,
        status: undefined,
        requestId: undefined,
        errorType: undefined,
      };
    },
    ended: (view) => {
      view.status = call.status;
      view.requestId = call.lastResponse?.requestId;
    },
  };
}

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
