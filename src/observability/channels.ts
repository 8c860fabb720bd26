import diagnostics from 'node:diagnostics_channel';
import type { CallbackView, OperationView, ReconcileView, RequestView } from './views.js';

export type * from './views.js';

export const operationChannel = diagnostics.tracingChannel<unknown, OperationView>(
  'pesakit.operation',
);
export const requestChannel = diagnostics.tracingChannel<unknown, RequestView>('pesakit.request');
export const callbackChannel = diagnostics.tracingChannel<unknown, CallbackView>(
  'pesakit.callback',
);
export const reconcileChannel = diagnostics.tracingChannel<unknown, ReconcileView>(
  'pesakit.reconcile',
);
export const transitionChannel = diagnostics.channel('pesakit:record:transition');
export const callbackReceivedChannel = diagnostics.channel('pesakit:callback:received');
