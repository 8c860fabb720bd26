import diagnostics from 'node:diagnostics_channel';
import type { CallbackView, OperationView, ReconcileView, RequestView } from './views.js';

export type * from './views.js';

const tracing = <V extends object>(name: string) => diagnostics.tracingChannel<unknown, V>(name);

export const operationChannel = tracing<OperationView>('pesakit.operation');
export const requestChannel = tracing<RequestView>('pesakit.request');
export const callbackChannel = tracing<CallbackView>('pesakit.callback');
export const reconcileChannel = tracing<ReconcileView>('pesakit.reconcile');
export const transitionChannel = diagnostics.channel('pesakit:record:transition');
export const callbackReceivedChannel = diagnostics.channel('pesakit:callback:received');
