import { type Link, type SpanContext, SpanKind } from '@opentelemetry/api';
import {
  type CallbackView,
  callbackChannel,
  type OperationView,
  operationChannel,
  type ReconcileView,
  type RequestView,
  reconcileChannel,
  requestChannel,
} from '../channels.js';
import { defined, type SpanRule } from './follow.js';
import type { Instruments } from './instruments.js';

/** How long a payment's span context is kept for the callbacks and checks that follow it. */
const rememberedPayments = 10_000;

/** The span rules of the four traced channels, and the metrics their ends record. */
export function spanRules(metrics: Instruments) {
  // The span of each payment's call, newest kept, so a later callback or check can link to it.
  const payments = new Map<string, SpanContext>();
  const linkTo = (merchantReference: string | undefined): Link[] => {
    const payment = merchantReference === undefined ? undefined : payments.get(merchantReference);
    return payment ? [{ context: payment }] : [];
  };

  const operation: SpanRule<OperationView> = {
    channel: operationChannel,
    kind: SpanKind.INTERNAL,
    name: (view) => view.operation,
    started: (view) => ({ 'pesakit.operation': view.operation, 'pesakit.product': view.product }),
    ended: (view) =>
      defined({
        'pesakit.outcome': view.outcome,
        'pesakit.merchant_reference': view.merchantReference,
        'error.type': view.errorType,
      }),
    measured: (view, _seconds, span) => {
      if (view.merchantReference === undefined) return;
      payments.delete(view.merchantReference);
      payments.set(view.merchantReference, span.spanContext());
      if (payments.size > rememberedPayments) payments.delete(payments.keys().next().value ?? '');
    },
  };

  const request: SpanRule<RequestView> = {
    channel: requestChannel,
    kind: SpanKind.CLIENT,
    name: (view) => `${view.method} ${view.urlTemplate}`,
    started: (view) =>
      defined({
        'http.request.method': view.method,
        'server.address': view.serverAddress,
        'server.port': view.serverPort,
        'url.template': view.urlTemplate,
        'http.request.resend_count': view.attempt > 1 ? view.attempt - 1 : undefined,
      }),
    ended: (view) =>
      defined({
        'http.response.status_code': view.status,
        'error.type': requestErrorType(view),
        'pesakit.request_id': view.requestId,
      }),
    measured: (view, seconds) => {
      const attributes = defined({
        'http.request.method': view.method,
        'server.address': view.serverAddress,
        'server.port': view.serverPort,
        'url.template': view.urlTemplate,
        'http.response.status_code': view.status,
        'error.type': requestErrorType(view),
      });
      metrics.requestDuration.record(seconds, attributes);
    },
  };

  const callback: SpanRule<CallbackView> = {
    channel: callbackChannel,
    kind: SpanKind.CONSUMER,
    name: () => 'pesakit.callback',
    started: (view) =>
      defined({ 'pesakit.product': view.product, 'pesakit.entry_id': view.entryId }),
    links: (view) => linkTo(view.merchantReference),
    ended: (view) =>
      defined({
        'pesakit.outcome': view.outcome,
        'pesakit.merchant_reference': view.merchantReference,
        'error.type': view.errorType,
      }),
    measured: (view) => {
      if (view.outcome === 'orphan') metrics.callbacksUnmatched.add(1);
      if (view.outcome === 'review') metrics.callbacksMismatch.add(1);
    },
  };

  const reconcile: SpanRule<ReconcileView> = {
    channel: reconcileChannel,
    kind: SpanKind.INTERNAL,
    name: () => 'pesakit.reconcile',
    started: (view) => ({
      'pesakit.product': view.product,
      'pesakit.merchant_reference': view.merchantReference,
    }),
    links: (view) => linkTo(view.merchantReference),
    ended: (view) => defined({ 'pesakit.outcome': view.outcome, 'error.type': view.errorType }),
    measured: (view) => {
      const product = { 'pesakit.product': view.product };
      metrics.reconcilerChecked.add(1, product);
      if (view.outcome === 'settled' || view.outcome === 'failed') {
        const outcome = view.outcome === 'settled' ? 'success' : 'failed';
        metrics.reconcilerSettled.add(1, { ...product, 'pesakit.outcome': outcome });
      }
      if (view.outcome === 'review') metrics.reconcilerReview.add(1, product);
    },
  };

  return [operation, request, callback, reconcile] as const;
}

/** The HTTP status for an answered failure (semantic conventions), else the error's name. */
function requestErrorType(view: RequestView): string | undefined {
  if (view.status !== undefined && view.status >= 400) return String(view.status);
  return view.errorType;
}
