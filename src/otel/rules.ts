import { type Link, type SpanContext, SpanKind } from '@opentelemetry/api';
import {
  callbackChannel,
  operationChannel,
  reconcileChannel,
  requestChannel,
} from '../observability/channels.js';
import type {
  CallbackView,
  OperationView,
  ReconcileView,
  RequestView,
} from '../observability/views.js';
import { defined, type SpanRule } from './follow.js';
import type { Instruments } from './instruments.js';

/** How many payments' span contexts are kept for the callbacks and checks that follow them. */
const rememberedPayments = 10_000;

/** The span rules of the four traced channels, and the metrics their ends record. */
export function spanRules(metrics: Instruments) {
  // Each payment call's span, newest kept, so that a later callback or check links to it.
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
    ended: (view) => ({
      'pesakit.outcome': view.outcome,
      'pesakit.merchant_reference': view.merchantReference,
    }),
    finished: (view, span) => {
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
    started: (view) => ({
      ...requestStart(view),
      'http.request.resend_count': view.attempt > 1 ? view.attempt - 1 : undefined,
    }),
    ended: (view) => ({ ...requestEnd(view), 'pesakit.request_id': view.requestId }),
    measured: (view, seconds) => {
      const attributes = defined({ ...requestStart(view), ...requestEnd(view) });
      metrics.requestDuration.record(seconds, attributes);
    },
  };

  const callback: SpanRule<CallbackView> = {
    channel: callbackChannel,
    kind: SpanKind.CONSUMER,
    name: () => 'pesakit.callback',
    started: (view) => ({ 'pesakit.product': view.product, 'pesakit.entry_id': view.entryId }),
    links: (view) => linkTo(view.merchantReference),
    ended: (view) => ({
      'pesakit.outcome': view.outcome,
      'pesakit.merchant_reference': view.merchantReference,
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
    ended: (view) => ({ 'pesakit.outcome': view.outcome }),
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

/** An attempt's attributes known at its start (semantic conventions). */
function requestStart(view: RequestView) {
  return {
    'http.request.method': view.method,
    'server.address': view.serverAddress,
    'server.port': view.serverPort,
    'url.template': view.urlTemplate,
  };
}

/** Its end's: an answered failure's type is its status, an unanswered one's the error's name. */
function requestEnd(view: RequestView) {
  const failed = view.status !== undefined && view.status >= 400;
  const errorType = failed ? String(view.status) : view.errorType;
  return { 'http.response.status_code': view.status, 'error.type': errorType };
}
